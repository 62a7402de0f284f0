import { Component, useEffect, useState, type ReactNode } from 'react';
import { browserLocation } from '../lib/browser-location';
import { reportClientError } from '../lib/report-client-error';
import { isStaleChunkError, mayReloadForStaleChunk, reloadForStaleChunk } from '../lib/stale-chunk';
import { ErrorScreen, explainError } from './error-screen';
import { PageLoading } from './page-loading';

interface RouteErrorBoundaryProps {
  /** The path shown: going to another one clears the error, without remounting what stayed (the call engine). */
  pathname: string;
  /** The route pattern the error is reported under. */
  route: string;
  children: ReactNode;
}

interface RouteErrorBoundaryState {
  error: { thrown: unknown } | null;
  /** The path that failed, once known. */
  failedAt: string | null;
}

/** The pages' error boundary: a page that threw or whose chunk did not load. Each error is reported once. */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  override state: RouteErrorBoundaryState = { error: null, failedAt: null };

  static getDerivedStateFromError(thrown: unknown): Partial<RouteErrorBoundaryState> {
    return { error: { thrown } };
  }

  static getDerivedStateFromProps(props: RouteErrorBoundaryProps, state: RouteErrorBoundaryState): Partial<RouteErrorBoundaryState> | null {
    if (state.error === null) return null;
    if (state.failedAt === null) return { failedAt: props.pathname };
    return state.failedAt === props.pathname ? null : { error: null, failedAt: null };
  }

  override componentDidCatch(thrown: unknown) {
    reportClientError(thrown, this.props.route);
  }

  override render() {
    return this.state.error ? <RouteErrorScreen error={this.state.error.thrown} /> : this.props.children;
  }
}

function RouteErrorScreen({ error }: { error: unknown }) {
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
