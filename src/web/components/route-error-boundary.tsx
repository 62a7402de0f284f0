import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router-dom';
import { browserLocation } from '../lib/browser-location';
import { isStaleChunkError, mayReloadForStaleChunk, reloadForStaleChunk } from '../lib/stale-chunk';
import { ErrorScreen, explainError } from './error-screen';
import { PageLoading } from './page-loading';

/** The router's error element: a page that threw or whose chunk did not load (reported by the router's onError, main.tsx). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const staleChunk = isStaleChunkError(error);
  const online = navigator.onLine;
  // A chunk gone after a deploy is fetched anew by one reload; offline, a reload would only show the browser's error page.
  // Decided as the screen mounts; the reload is an effect, which the guard makes safe to run twice.
  const [reloading] = useState(() => staleChunk && online && mayReloadForStaleChunk());
  useEffect(() => {
    if (reloading) reloadForStaleChunk();
  }, [reloading]);

  if (reloading) return <PageLoading />;
  return <ErrorScreen explanation={explainError({ staleChunk, online })} onRetry={() => browserLocation.reload()} />;
}
