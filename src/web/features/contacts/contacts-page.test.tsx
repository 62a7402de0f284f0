import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../../tests/support/render-web';
import { stubApi } from '../../../../tests/support/web-fetch';
import { ContactsPage } from './contacts-page';

afterEach(() => vi.unstubAllGlobals());

describe('Phone Management page', () => {
  it('shows the Phone Numbers and Your Contacts cards under its heading', async () => {
    vi.stubGlobal(
      'fetch',
      stubApi({
        'GET /api/v1/numbers': { status: 200, body: { numbers: [] } },
        'GET /api/v1/contacts': { status: 200, body: { contacts: [] } },
      }).fetchStub,
    );
    renderRoutes([{ path: '/contacts', element: <ContactsPage /> }], '/contacts');
    expect(screen.getByRole('heading', { level: 1, name: 'Phone Management' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Phone Numbers' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your Contacts' })).toBeInTheDocument();
    expect(await screen.findByText("You don't have any phone numbers yet.")).toBeInTheDocument();
    expect(await screen.findByText("You don't have any contacts yet")).toBeInTheDocument();
  });
});
