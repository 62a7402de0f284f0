import { Component, type ReactNode } from 'react';
import { browserLocation } from '../lib/browser-location';
import { reportClientError } from '../lib/report-client-error';
import { ErrorScreen, explainError } from './error-screen';

interface AppErrorBoundaryState {
  failed: boolean;
}

/** The last line: an error outside the router's pages (in a provider, or the router itself) shows the friendly screen too. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): AppErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    reportClientError(error, window.location.pathname);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ErrorScreen explanation={explainError({ staleChunk: false, online: true })} onRetry={() => browserLocation.reload()} />;
  }
}
