import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../tests/support/render-web';
import { AppProviders } from '../app';
import { browserLocation } from '../lib/browser-location';
import { createQueryClient } from '../lib/query-client';
import { reportRouteError, routes } from '../router';
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

/** The app's providers and router, with the router's onError as main.tsx gives it. */
function renderApp(appRoutes: RouteObject[], path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} onError={reportRouteError} />
    </AppProviders>,
  );
}

const reports = () => requests.filter(({ url }) => url === '/api/v1/client-errors').map(({ init }) => JSON.parse(String(init?.body)) as Record<string, unknown>);

describe('a page that fails', () => {
  it('shows the friendly screen, focused on what happened, with Try again and Go home, and reports it under its route', async () => {
    renderApp(routes, '/no-such-page');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Something went wrong' });
    expect(heading).toHaveFocus();
    expect(screen.getByText(/stopped working because of a problem on our side/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText(/Unexpected Application Error/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reports()).toEqual([{ route: '*', message: "Cannot read properties of undefined (reading 'map')", stack: expect.any(String) }]);
  });
});

describe('a page whose chunk is gone after a deploy', () => {
  const staleRoutes: RouteObject[] = [
    {
      HydrateFallback: PageLoading,
      ErrorBoundary: RouteErrorBoundary,
      children: [{ path: '/contacts', lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/contacts-page-1a2b.js')) }],
    },
  ];

  it('reloads the page once, and shows the friendly screen when the reloaded page fails too, reporting each failure', async () => {
    const first = renderApp(staleRoutes, '/contacts');
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    first.unmount();

    renderApp(staleRoutes, '/contacts');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toHaveFocus();
    expect(screen.getByText(/Voxline was updated while this page was open/)).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
    const staleChunkReport = expect.objectContaining({ route: '/contacts', message: expect.stringContaining('dynamically imported module') });
    expect(reports()).toEqual([staleChunkReport, staleChunkReport]);
  });

  it('does not reload offline, where a reload would show the browser’s own error page', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderApp(staleRoutes, '/contacts');
      expect(await screen.findByText(/the connection was lost/)).toBeInTheDocument();
      expect(reload).not.toHaveBeenCalled();
    } finally {
      onLine.mockRestore();
    }
  });
});
