import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MAX_RETRIES = 3;
const FRESH_FOR_MS = 5_000;

/** A client error (4xx) will not change by asking again; anything else is retried. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** docs/product.md §9: exponential back-off capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/**
 * A tab reloads what it shows when the user comes back to it: how tabs on plans without
 * multi-device sync catch up (docs/decisions/037-sync-on-platinum.md).
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // A tab the user comes back to reloads what it shows: on plans without multi-device sync that is
      // how a change made on another device reaches it (docs/decisions/037-sync-on-platinum.md).
      // What was fetched in the last few seconds is fresh: the signed-in frame and its page, mounted
      // a moment apart as their chunks arrive, share one request rather than asking twice.
      queries: { gcTime: 5 * 60 * 1000, staleTime: FRESH_FOR_MS, retry: shouldRetry, retryDelay, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
