import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { PreferencesThemeSync } from './lib/preferences';
import { RealtimeProvider } from './lib/realtime';
import { ThemeProvider } from './lib/theme';

// With sonner, fetched while the page renders rather than before it (decision 021): notices raised
// earlier show when it subscribes.
const Toaster = lazy(() => import('./components/ui/sonner').then(({ Toaster }) => ({ default: Toaster })));

/** Providers every page shares; the router or a test renders inside. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <PreferencesThemeSync />
        <RealtimeProvider>{children}</RealtimeProvider>
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
