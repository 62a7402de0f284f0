import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '../../src/web/app';
import { AppRoutes } from '../../src/web/router';
import { createQueryClient } from '../../src/web/lib/query-client';

/** Renders routes as the app does (providers, toasts), starting at `path`. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** Renders the whole app as main.tsx does, starting at `path`; its memory router tells where it went. */
export function renderApp(path: string) {
  return renderRoutes([{ path: '*', element: <AppRoutes /> }], path);
}

export function renderWithRoute(element: ReactElement, path = '/') {
  return renderRoutes([{ path: '*', element }], path);
}

/** A fetch stub answering by path; anything unlisted is a 404 in the API's error shape. */
export function stubFetch(answers: Record<string, { status: number; body?: unknown }>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetchStub = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, ...(init ? { init } : {}) });
    const answer = answers[url] ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetchStub, calls };
}
