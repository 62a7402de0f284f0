import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, renderWithRoute, stubFetch } from '../../../tests/support/render-web';
import { browserLocation } from '../lib/browser-location';
import { routePattern } from '../router';
import { PageLoading } from './page-loading';
import { RouteErrorBoundary } from './route-error-boundary';

// The 404 page stands for any page that throws while it renders.
vi.mock('../features/not-found/not-found-page', () => ({
  NotFoundPage: () => {
    throw new TypeError("Cannot read properties of undefined (reading 'map')");
  },
}));

let reload: ReturnType<typeof vi.spyOn>;
let requests: ReturnType<typeof stubFetch>['calls'];

beforeEach(() => {
  reload = vi.spyOn(browserLocation, 'reload').mockImplementation(() => undefined);
  const stub = stubFetch({
    '/api/v1/session': { status: 401, body: { error: { code: 'unauthenticated', message: 'No' } } },
    '/api/v1/client-errors': { status: 204 },
  });
  vi.stubGlobal('fetch', stub.fetchStub);
  requests = stub.calls;
  // React tells the console of every error a boundary catches: those this test throws are expected.
  const unexpected = vi.mocked(console.error).getMockImplementation();
  vi.mocked(console.error).mockImplementation((...args: unknown[]) => {
    if (!args.some((arg) => arg instanceof Error && /reading 'map'|dynamically imported module/.test(arg.message))) unexpected?.(...args);
  });
});
afterEach(() => {
  reload.mockRestore();
  vi.unstubAllGlobals();
});

const reports = () => requests.filter(({ url }) => url === '/api/v1/client-errors').map(({ init }) => JSON.parse(String(init?.body)) as Record<string, unknown>);

describe('a page that fails', () => {
  it('shows the friendly screen, focused on what happened, with Try again and Go home, and reports it under its route', async () => {
    renderApp('/no-such-page');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Something went wrong' });
    expect(heading).toHaveFocus();
    expect(screen.getByText(/stopped working because of a problem on our side/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText(/Unexpected Application Error/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reports()).toEqual([{ route: '*', message: "Cannot read properties of undefined (reading 'map')", stack: expect.any(String) }]);
  });

  it('clears when the person goes to another page', async () => {
    const { router } = renderApp('/no-such-page');
    await screen.findByRole('heading', { level: 1, name: 'Something went wrong' });
    // Back, or a link elsewhere in the app: the router moves on, and the boundary with it.
    await act(() => router.navigate('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Unlimited calls everywhere' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });
});

describe('a page whose chunk is gone after a deploy', () => {
  const gone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/contacts-page-1a2b.js'));

  /** A page whose chunk cannot be fetched, under the boundary as AppRoutes places it. */
  function renderStalePage() {
    const StalePage = lazy(gone);
    return renderWithRoute(
      <RouteErrorBoundary pathname="/contacts" route="/contacts">
        <Suspense fallback={<PageLoading />}>
          <StalePage />
        </Suspense>
      </RouteErrorBoundary>,
      '/contacts',
    );
  }

  it('reloads the page once, and shows the friendly screen when the reloaded page fails too, reporting each failure', async () => {
    const first = renderStalePage();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    first.unmount();

    renderStalePage();
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toHaveFocus();
    expect(screen.getByText(/Voxline was updated while this page was open/)).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
    const staleChunkReport = expect.objectContaining({ route: '/contacts', message: expect.stringContaining('dynamically imported module') });
    expect(reports()).toEqual([staleChunkReport, staleChunkReport]);
  });

  it('does not reload offline, where a reload would show the browser’s own error page', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderStalePage();
      expect(await screen.findByText(/the connection was lost/)).toBeInTheDocument();
      expect(reload).not.toHaveBeenCalled();
    } finally {
      onLine.mockRestore();
    }
  });
});

describe('the route pattern errors are reported under', () => {
  it.each([
    ['/contacts', '/contacts'],
    ['/payment/receipt', '/payment/receipt'],
    ['/reset/3f9a-a-token', '*'],
    ['/', '/'],
  ])('%s is %s', (pathname, pattern) => {
    expect(routePattern(pathname)).toBe(pattern);
  });
});
