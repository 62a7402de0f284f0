import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../tests/support/render-web';
import { apiError, stubApi } from '../../../tests/support/web-fetch';
import { SettingsPage } from '../features/settings/settings-page';
import { api, ApiError } from './api-client';
import { withErrorReference } from './error-reference';

const REQUEST_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

afterEach(() => vi.unstubAllGlobals());

describe('the reference of a failed request', () => {
  it("is the start of the answer's X-Request-Id, kept whole on the ApiError", async () => {
    vi.stubGlobal('fetch', stubApi({ '/api/v1/items': { ...apiError(503, 'database_unavailable', 'The database is unavailable right now.'), headers: { 'x-request-id': REQUEST_ID } } }).fetchStub);
    const failure = await api.get('/items', z.object({})).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, requestId: REQUEST_ID, reference: '1a2b3c4d' });
  });

  it('follows the text of an error toast when the server answered, and only then', () => {
    const answered = new ApiError(409, 'call_in_progress', 'Please end the current call first', undefined, REQUEST_ID);
    expect(withErrorReference(answered.message, answered)).toBe('Please end the current call first (Reference: 1a2b3c4d)');
    expect(withErrorReference('Cannot reach Voxline.', ApiError.network())).toBe('Cannot reach Voxline.');
    expect(withErrorReference('Something broke', new Error('Something broke'))).toBe('Something broke');
  });

  it('is shown in the toast of a failed request, for the user to quote', async () => {
    const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
    vi.stubGlobal(
      'fetch',
      stubApi({
        'GET /api/v1/session': { status: 200, body: { user } },
        'GET /api/v1/subscription': { status: 200, body: { tier: 'free', isActive: false, expiryDate: null } },
        'GET /api/v1/subscription/minutes': { status: 200, body: { tier: 'free', monthlyMinutes: 10, usedSeconds: 0, secondsLeft: 600, resetsAt: '2026-12-01T00:00:00.000Z' } },
        'POST /api/v1/payments': { ...apiError(502, 'provider_failed', 'Paystack could not be reached'), headers: { 'x-request-id': REQUEST_ID } },
      }).fetchStub,
    );
    renderRoutes([{ path: '/settings', element: <SettingsPage /> }], '/settings');
    await userEvent.click(await within(await screen.findByRole('region', { name: 'Premium' })).findByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Failed to create payment session: Paystack could not be reached (Reference: 1a2b3c4d)')).toBeInTheDocument();
  });
});
