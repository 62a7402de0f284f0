import { CLIENT_ERROR_LIMITS } from '../../common/api/client-error-limits';
import type { ClientErrorReport } from '../../common/api/client-errors';

// Control characters (tab and newline aside) and halves of a UTF-16 pair, which the server refuses.
const UNSENDABLE = /(?![\t\n])[\p{Cc}\u2028\u2029\ud800-\udfff]/gu;

const clip = (text: string, max: number) => text.slice(0, max).replace(UNSENDABLE, '\ufffd');

// React and the router may both hear of one error, and React's strict mode runs effects twice.
const reported = new WeakSet<object>();

/** Tells the server's log that a page failed (POST /api/v1/client-errors), once per error. Never throws. */
export function reportClientError(error: unknown, route: string): void {
  try {
    if (typeof error === 'object' && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? error.stack : undefined;
    const report: ClientErrorReport = {
      route: clip(route, CLIENT_ERROR_LIMITS.route) || '/',
      message: clip(message, CLIENT_ERROR_LIMITS.message),
      ...(stack ? { stack: clip(stack, CLIENT_ERROR_LIMITS.stack) } : {}),
    };
    // keepalive: the report of a stale chunk still goes out while the page reloads.
    fetch('/api/v1/client-errors', {
      method: 'POST',
      credentials: 'same-origin',
      keepalive: true,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
    }).catch(() => undefined);
  } catch {
    // Reporting is a courtesy to the log: a page that already failed must not fail again because of it.
  }
}
