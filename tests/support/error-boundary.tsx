import { Component, type ReactNode } from 'react';

/** Shows the message of what its children threw, as an alert, for tests of what reaches a route's error screen. */
export class ErrorMessageBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}
