import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Notices } from './components/notices';
import { ThemeProvider } from './lib/theme';

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
        <Notices />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
