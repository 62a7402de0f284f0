import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, stubFetch } from '../../../tests/support/render-web';
import { NavBar } from './nav-bar';

function renderNav(path = '/dialer') {
  return renderRoutes(
    [
      { path: '/', element: <p>Home page</p> },
      { path: '*', element: <NavBar /> },
    ],
    path,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('NavBar', () => {
  it('links every signed-in page, labelling /settings Subscription on the desktop bar', () => {
    renderNav();
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Voxline' })).toHaveAttribute('href', '/dialer');
    expect(within(main).getByRole('link', { name: 'Dialer' })).toHaveAttribute('href', '/dialer');
    expect(within(main).getByRole('link', { name: 'Contacts' })).toHaveAttribute('href', '/contacts');
    expect(within(main).getByRole('link', { name: 'Call Settings' })).toHaveAttribute('href', '/call-settings');
    expect(within(main).getByRole('link', { name: 'Subscription' })).toHaveAttribute('href', '/settings');
    expect(within(main).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
  });

  it('links the Admin page for administrators only, on the bar and in the mobile menu', async () => {
    const user = { id: 'u1', email: 'ops@example.com', fullName: 'Olga Operator' };
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': { status: 200, body: { user, isAdmin: true } } }).fetchStub);
    const admin = renderNav();
    expect(await within(screen.getByRole('navigation', { name: 'Main' })).findByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    admin.unmount();

    vi.stubGlobal('fetch', stubFetch({ '/api/v1/session': { status: 200, body: { user, isAdmin: false } } }).fetchStub);
    const { queryClient } = renderNav();
    await waitFor(() => expect(queryClient.getQueryState(['session'])?.status).toBe('success'));
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('opens and closes the mobile menu, which closes when a link is tapped', async () => {
    const { router } = renderNav();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();

    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(menu).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');

    await userEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Contacts' }));
    expect(router.state.location.pathname).toBe('/contacts');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
  });

  it('links Voicemail with its unheard count, on the bar and in the mobile menu', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/voicemail': { status: 200, body: { voicemails: [], unheard: 2 } } }).fetchStub);
    renderNav();
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(main).findByRole('link', { name: 'Voicemail, 2 unheard' })).toHaveAttribute('href', '/voicemail');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Voicemail, 2 unheard' })).toHaveTextContent('Voicemail2');
  });

  it('signs out, says so and goes home', async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/auth/sign-out': { status: 200, body: { success: true } } });
    vi.stubGlobal('fetch', fetchStub);
    const { router } = renderNav();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.find((call) => call.url === '/api/v1/auth/sign-out')).toMatchObject({ init: { method: 'POST' } });
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    expect(screen.getByText('You have been successfully logged out')).toBeInTheDocument();
  });

  it('counts a sign-out whose session is already gone as success', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/auth/sign-out': { status: 401 } }).fetchStub);
    const { router } = renderNav();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
  });

  it('stays and shows the error when sign-out fails', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/auth/sign-out': { status: 500, body: { error: { code: 'internal', message: 'Database down' } } } }).fetchStub);
    const { router } = renderNav();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Database down')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dialer');
  });
});
