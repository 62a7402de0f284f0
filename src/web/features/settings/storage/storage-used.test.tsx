import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import { SettingsPage } from '../settings-page';

afterEach(() => vi.unstubAllGlobals());

function renderSubscriptionTab(storage: StubResponder) {
  vi.stubGlobal(
    'fetch',
    stubApi({
      'GET /api/v1/session': { status: 200, body: { user: { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' } } },
      'GET /api/v1/subscription': { status: 200, body: { tier: 'premium', isActive: true, expiryDate: '2026-12-15T10:00:00.000Z' } },
      'GET /api/v1/subscription/minutes': { status: 200, body: { tier: 'premium', monthlyMinutes: 150, usedSeconds: 0, secondsLeft: 9000, resetsAt: '2026-12-01T00:00:00.000Z' } },
      'GET /api/v1/storage': storage,
    }).fetchStub,
  );
  renderRoutes([{ path: '/settings', element: <SettingsPage /> }], '/settings?tab=subscription');
}

const storageRow = async () => (await screen.findByText('Storage used')).closest('div')!;

describe('Storage used, on the Subscription tab', () => {
  it('says what recordings and voicemail take, together and each, in words', async () => {
    renderSubscriptionTab({ status: 200, body: { recordingsBytes: 2_000_000, voicemailBytes: 412_000 } });
    const row = await storageRow();
    expect(await within(row).findByText('2.4 MB')).toBeInTheDocument();
    expect(row).toHaveTextContent('Recordings 2.0 MB · Voicemail 412 kB');
  });

  it('says nothing is stored yet as 0 bytes', async () => {
    renderSubscriptionTab({ status: 200, body: { recordingsBytes: 0, voicemailBytes: 0 } });
    expect(await within(await storageRow()).findByText('0 bytes')).toBeInTheDocument();
  });

  it('says when the figure cannot be had, leaving the rest of the tab alone', async () => {
    renderSubscriptionTab(apiError(503, 'database_unavailable', 'The database is unavailable'));
    expect(await within(await storageRow()).findByText('Not available right now')).toBeInTheDocument();
    expect(screen.getByLabelText('Subscription status')).toHaveTextContent('Current planPremium');
  });
});
