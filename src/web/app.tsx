import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { ThemeProvider } from './lib/theme';

// With sonner, fetched while the page renders rather than before it (decision 021): notices raised
// earlier show when it subscribes.
const Toaster = lazy(() => import('./components/ui/sonner').then(({ Toaster }) => ({ default: Toaster })));

/**
 * Providers every page shares; the router or a test renders inside. The realtime socket and the
 * saved theme's sync belong to the signed-in frame (AppLayout): the public pages load neither,
 * nor the schemas they parse with (docs/decisions/021).
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
