import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, stubFetch } from '../../../tests/support/render-web';
import { PENDING_PAYMENT_KEY } from '../lib/pending-payment';
import { RequireSession } from './require-session';

const routes = [
  { path: '/', element: <h1>Home</h1> },
  { element: <RequireSession />, children: [{ path: '/settings', element: <h1>Settings</h1> }] },
];

afterEach(() => vi.unstubAllGlobals());

describe('RequireSession', () => {
  it("shows 'Loading...' while the session is checked", () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
    renderRoutes(routes, '/settings');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
  });

  // null is this release's answer; a 401 is that of a server of the release before (decision 025), met during a rolling upgrade.
  it.each([
    ['null', { status: 200, body: null }],
    ['401', { status: 401, body: { error: { code: 'unauthenticated', message: 'No' } } }],
  ])('sends a signed-out visitor home with the original location, keeping a payment reference (session answered %s)', async (_, answer) => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': answer }).fetchStub);
    const { router } = renderRoutes(routes, '/settings?tab=subscription&reference=ref_123');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect((router.state.location.state as { from: { pathname: string; search: string } }).from).toMatchObject({
      pathname: '/settings',
      search: '?tab=subscription&reference=ref_123',
    });
    expect(window.sessionStorage.getItem(PENDING_PAYMENT_KEY)).toBe('ref_123');
  });

  it('shows the page to a signed-in user', async () => {
    const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': { status: 200, body: { user } } }).fetchStub);
    renderRoutes(routes, '/settings');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it('offers to try again when the session check fails', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': { status: 503, body: { error: { code: 'database_unavailable', message: 'The database is unavailable right now.' } } } }).fetchStub);
    renderRoutes(routes, '/settings');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The database is unavailable right now.'));
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
