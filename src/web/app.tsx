import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from './components/ui/sonner';
import { PreferencesThemeSync } from './lib/preferences';
import { RealtimeProvider } from './lib/realtime';
import { ThemeProvider } from './lib/theme';

/** Providers every page shares; the router or a test renders inside. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <PreferencesThemeSync />
        <RealtimeProvider>{children}</RealtimeProvider>
        <Toaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
