import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PageLoading } from './components/page-loading';
import { RequireSession } from './components/require-session';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { reportClientError } from './lib/report-client-error';

// Each page is its own chunk, loaded when its route is first visited.
const pages: RouteObject[] = [
  { path: '/', lazy: async () => ({ Component: (await import('./features/home/home-page')).HomePage }) },
  { path: '/auth', lazy: async () => ({ Component: (await import('./features/auth/auth-page')).AuthPage }) },
  {
    path: '/payment/callback',
    lazy: async () => ({ Component: (await import('./features/payment-callback/payment-callback-page')).PaymentCallbackPage }),
  },
  {
    element: <RequireSession />,
    children: [
      {
        // The signed-in pages' frame holds the call engine and its phone number formatting: signed-out pages never load it.
        lazy: async () => ({ Component: (await import('./components/app-layout')).AppLayout }),
        children: [
          { path: '/dialer', lazy: async () => ({ Component: (await import('./features/dialer/dialer-page')).DialerPage }) },
          { path: '/contacts', lazy: async () => ({ Component: (await import('./features/contacts/contacts-page')).ContactsPage }) },
          { path: '/voicemail', lazy: async () => ({ Component: (await import('./features/voicemail/voicemail-page')).VoicemailPage }) },
          {
            path: '/call-settings',
            lazy: async () => ({ Component: (await import('./features/call-settings/call-settings-page')).CallSettingsPage }),
          },
          { path: '/settings', lazy: async () => ({ Component: (await import('./features/settings/settings-page')).SettingsPage }) },
          { path: '/admin', lazy: async () => ({ Component: (await import('./features/admin/admin-page')).AdminPage }) },
          {
            path: '/payment/receipt',
            lazy: async () => ({ Component: (await import('./features/payment-receipt/payment-receipt-page')).PaymentReceiptPage }),
          },
        ],
      },
    ],
  },
  { path: '*', lazy: async () => ({ Component: (await import('./features/not-found/not-found-page')).NotFoundPage }) },
];

// The first page's chunk is loading while the app starts: show the same text as every other wait.
// A page that throws, or whose chunk does not load, shows the error screen in place of the router's developer page.
export const routes: RouteObject[] = [{ HydrateFallback: PageLoading, ErrorBoundary: RouteErrorBoundary, children: pages }];

/** The router's onError: every page error once, under its route pattern (/contacts, never an id or a token). */
export function reportRouteError(error: unknown, { pattern }: { pattern: string }) {
  reportClientError(error, pattern);
}

export function createRouter() {
  return createBrowserRouter(routes, { basename: '/' });
}
