import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { stubApi } from '../../../../../tests/support/web-fetch';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { DialerPad } from './dialer-pad';

// The phone library (fetched after the page shows) never arrives in this file.
vi.mock('../../../lib/phone-library-module', () => new Promise(() => undefined));

const number = { id: 'n1', phoneNumber: '+14155550123', friendlyName: 'Work', active: true, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' };

function renderPad(numbers: unknown[]) {
  vi.stubGlobal('fetch', stubApi({ '/api/v1/numbers': { status: 200, body: { numbers } } }).fetchStub);
  return renderRoutes([{ path: '/dialer', element: <DialerPad onCall={() => undefined} busy={false} onCallKey={() => false} /> }], '/dialer');
}

afterEach(() => vi.unstubAllGlobals());

describe('the dialer pad before the phone library has arrived', () => {
  it("shows a new user's way to add a number, which formats no number", async () => {
    renderPad([]);
    expect(await screen.findByText('You need to add a phone number to make calls.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a phone number' })).toHaveAttribute('href', '/contacts');
  });

  it('waits for it before showing numbers, so that none is drawn unformatted', async () => {
    const { queryClient } = renderPad([number]);
    await waitFor(() => expect(queryClient.getQueryState(phoneNumbersQuery.queryKey)?.status).toBe('success'));
    expect(screen.getByText('Loading your numbers...')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Call from' })).not.toBeInTheDocument();
  });
});
