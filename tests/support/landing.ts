import vm from 'node:vm';
import { landingScript } from '../../src/web/landing/landing-script';

/**
 * Runs index.html's landing script (src/web/landing) as a page at `pathname` would, against this
 * fetch, asking early for the session and `data`; leaves its answers where the app reads them.
 */
export function landOnPage(fetchStub: (url: string, init?: RequestInit) => Promise<Response>, pathname = '/page', data: readonly string[] = []) {
  const page: Record<string, unknown> = { location: { pathname }, fetch: fetchStub, document: { head: {} } };
  vm.runInNewContext(landingScript({ [pathname]: { modules: [], data } }), page);
  (globalThis as { __voxlineEarly?: unknown }).__voxlineEarly = page.__voxlineEarly;
}

/** Forgets what a test's landing script left unread, so that the next test starts without it. */
export function forgetLanding() {
  delete (globalThis as { __voxlineEarly?: unknown }).__voxlineEarly;
}
