import { Suspense, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { PageLoading } from './components/page-loading';
import { RequireSession } from './components/require-session';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { fetchEarly } from './lib/early-requests';
import { lazyComponent } from './lib/lazy-component';

/** What a route keeps beside its element: how to start fetching its chunk, and the data it first shows. */
interface LazyHandle {
  preload(): Promise<ComponentType>;
  /** The /api/v1 GETs the page makes as it first shows: asked for while its chunks load on the page a visit lands on. */
  data: readonly string[];
}

/** A route's element and handle for a page whose chunk is fetched when its path is first shown. */
function lazyPage(load: () => Promise<ComponentType>, data: readonly string[] = []): Pick<RouteObject, 'element' | 'handle'> {
  const { Component: Page, load: preload } = lazyComponent(load);
  const handle: LazyHandle = { preload, data };
  return { element: <Page />, handle };
}

/** The dialer's pad waits for the phone library (lib/phone-library.ts) as well as its data: its chunk is fetched with the page's. */
async function loadDialerPage() {
  import('./lib/phone-library-module').catch(() => undefined);
  return (await import('./features/dialer/dialer-page')).DialerPage;
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
        ...lazyPage(async () => (await import('./components/app-layout')).AppLayout, ['/preferences', '/voicemail']),
        children: [
          { path: '/dialer', ...lazyPage(loadDialerPage, ['/subscription/minutes', '/numbers', '/subscription']) },
          { path: '/contacts', ...lazyPage(async () => (await import('./features/contacts/contacts-page')).ContactsPage, ['/numbers', '/contacts']) },
          { path: '/voicemail', ...lazyPage(async () => (await import('./features/voicemail/voicemail-page')).VoicemailPage, ['/contacts']) },
          { path: '/call-settings', ...lazyPage(async () => (await import('./features/call-settings/call-settings-page')).CallSettingsPage, ['/numbers', '/calls/lines', '/voice-settings']) },
          { path: '/settings', ...lazyPage(async () => (await import('./features/settings/settings-page')).SettingsPage, ['/subscription', '/storage', '/subscription/minutes']) },
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
export function preloadRoute(pathname: string) {
  for (const { route } of matchRoutes(routes, pathname) ?? []) void (route.handle as LazyHandle | undefined)?.preload();
}

/**
 * Asks for the data `pathname`'s pages first show while their chunks load, rather than once they
 * have rendered (lib/early-requests.ts). For the page a visit lands on: on a later move, the
 * pages' queries often have the answers cached, and an early answer nobody reads is waste.
 */
export function fetchRouteData(pathname: string) {
  for (const { route } of matchRoutes(routes, pathname) ?? []) for (const path of (route.handle as LazyHandle | undefined)?.data ?? []) fetchEarly(path);
}

/**
 * The app's pages. A page that throws, or whose chunk does not load, shows the error screen (and
 * is reported under its route pattern) in place of React's blank page; while a page's chunk
 * loads, the same text as every other wait.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  preloadRoute(pathname);
  const element = useRoutes(routes);
  return (
    <RouteErrorBoundary pathname={pathname} route={routePattern(pathname)}>
      <Suspense fallback={<PageLoading />}>{element}</Suspense>
    </RouteErrorBoundary>
  );
}
