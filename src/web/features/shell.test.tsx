import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, stubFetch } from '../../../tests/support/render-web';
import { PENDING_PAYMENT_KEY } from '../lib/pending-payment';

afterEach(() => vi.unstubAllGlobals());

function signedOut() {
  vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': { status: 401, body: { error: { code: 'unauthenticated', message: 'No' } } } }).fetchStub);
}

describe('the app shell', () => {
  it('shows the 404 page for an unknown path, with a way home', async () => {
    signedOut();
    const { router } = renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Return to Home' }));
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth?tab=signup');
    expect(router.state.location.pathname).toBe('/');
  });

  it('puts the current year and the rights line in the footer', async () => {
    signedOut();
    renderApp('/');
    const footer = await screen.findByRole('contentinfo');
    expect(footer).toHaveTextContent(String(new Date().getFullYear()));
    expect(footer).toHaveTextContent('All rights reserved');
  });

  it('keeps the payment reference from /payment/callback and goes home, replacing the entry', async () => {
    signedOut();
    const { router } = renderApp('/payment/callback?reference=abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Unlimited calls everywhere' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(window.sessionStorage.getItem(PENDING_PAYMENT_KEY)).toBe('abc');
  });

  it('shows a signed-in user the navigation bar and the page', async () => {
    const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': { status: 200, body: { user } } }).fetchStub);
    renderApp('/contacts');
    // The signed-in frame and the page are two lazy chunks, compiled on first use under the test runner.
    expect(await screen.findByRole('heading', { name: 'Phone Management' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
