import { Suspense, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { PageLoading } from './components/page-loading';
import { RequireSession } from './components/require-session';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { lazyComponent } from './lib/lazy-component';

/** What a route keeps beside its element: how to start fetching its chunk. */
interface LazyHandle {
  preload(): Promise<ComponentType>;
}

/**
 * A route's element and handle for a page whose chunk is fetched when its path is first shown. The
 * page a visit lands on has its chunks and data asked for by index.html (landing/landing-routes.ts).
 */
function lazyPage(load: () => Promise<ComponentType>): Pick<RouteObject, 'element' | 'handle'> {
  const { Component: Page, load: preload } = lazyComponent(load);
  const handle: LazyHandle = { preload };
  return { element: <Page />, handle };
}

// react-router's declarative routes rather than its data router, which costs 16 kB more of every
// first load for loaders and actions the app does not use (docs/decisions/021).
const routes: RouteObject[] = [
  { path: '/', ...lazyPage(async () => (await import('./features/home/home-page')).HomePage) },
  { path: '/auth', ...lazyPage(async () => (await import('./features/auth/auth-page')).AuthPage) },
  { path: '/payment/callback', ...lazyPage(async () => (await import('./features/payment-callback/payment-callback-page')).PaymentCallbackPage) },
  {
    element: <RequireSession />,
    children: [
      {
        // The signed-in pages' frame holds the call engine and its phone number formatting: signed-out pages never load it.
        ...lazyPage(async () => (await import('./components/app-layout')).AppLayout),
        children: [
          { path: '/dialer', ...lazyPage(async () => (await import('./features/dialer/dialer-page')).DialerPage) },
          { path: '/contacts', ...lazyPage(async () => (await import('./features/contacts/contacts-page')).ContactsPage) },
          { path: '/voicemail', ...lazyPage(async () => (await import('./features/voicemail/voicemail-page')).VoicemailPage) },
          { path: '/call-settings', ...lazyPage(async () => (await import('./features/call-settings/call-settings-page')).CallSettingsPage) },
          { path: '/settings', ...lazyPage(async () => (await import('./features/settings/settings-page')).SettingsPage) },
          { path: '/admin', ...lazyPage(async () => (await import('./features/admin/admin-page')).AdminPage) },
          { path: '/payment/receipt', ...lazyPage(async () => (await import('./features/payment-receipt/payment-receipt-page')).PaymentReceiptPage) },
        ],
      },
    ],
  },
  { path: '*', ...lazyPage(async () => (await import('./features/not-found/not-found-page')).NotFoundPage) },
];

/** The pattern a path is shown under (/contacts, or * for any unknown path): never an id or a token. */
export function routePattern(pathname: string): string {
  return matchRoutes(routes, pathname)?.at(-1)?.route.path ?? '*';
}

/**
 * Starts fetching every chunk `pathname` needs at once (the signed-in frame's and the page's, while
 * the session is checked), rather than each once the one around it has rendered. main.tsx calls it
 * before React's first render, as the data router did; calling it again fetches nothing new.
 */
export function preloadRoute(pathname: string): Promise<ComponentType[]> {
  const handles = (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => (route.handle ? [route.handle as LazyHandle] : []));
  return Promise.all(handles.map((handle) => handle.preload()));
}

/**
 * The app's pages. A page that throws, or whose chunk does not load, shows the error screen (and
 * is reported under its route pattern) in place of React's blank page; while a page's chunk
 * loads, the same text as every other wait.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  // A chunk that fails to load fails its page, for the error screen below.
  preloadRoute(pathname).catch(() => undefined);
  const element = useRoutes(routes);
  return (
    <RouteErrorBoundary pathname={pathname} route={routePattern(pathname)}>
      <Suspense fallback={<PageLoading />}>{element}</Suspense>
    </RouteErrorBoundary>
  );
}
