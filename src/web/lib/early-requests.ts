/**
 * GET requests a page starts before the code that reads them has loaded: index.html asks for the
 * session before any module runs, and main.tsx asks for the landing page's data while its chunks
 * load (router.tsx). The first api.get of the same path takes the answer; every later one asks the
 * server again, as does one that comes too late or finds the early fetch failed.
 */

/** Older than this, an early answer is dropped unread: the page took so long that it may have changed. */
const FRESH_MS = 10_000;

interface EarlyRequest {
  startedAt: number;
  /** Null when the server could not be reached: the reader then asks again and reports that failure itself. */
  response: Promise<Response | null>;
}

const early = new Map<string, EarlyRequest>();

const fromIndexHtml = globalThis as { __voxlineEarlySession?: Promise<Response | null> };

/**
 * Files what index.html's inline script left (its GET /api/v1/session) with the others, on the first
 * use of this module: main.tsx's, as the page's modules have loaded.
 */
function adoptIndexHtmlSession() {
  if (!fromIndexHtml.__voxlineEarlySession) return;
  early.set('/session', { startedAt: performance.now(), response: fromIndexHtml.__voxlineEarlySession });
  delete fromIndexHtml.__voxlineEarlySession;
}

/** Starts GET /api/v1`path` now, for the page's first read of it; a path already asked for is not asked again. */
export function fetchEarly(path: string): void {
  adoptIndexHtmlSession();
  if (early.has(path)) return;
  const response = fetch(`/api/v1${path}`, { credentials: 'same-origin', headers: { accept: 'application/json' } }).catch(() => null);
  early.set(path, { startedAt: performance.now(), response });
}

/** The early answer for `path`, once: undefined when none was asked for, it was taken already, or it is stale. */
export function takeEarly(path: string): Promise<Response | null> | undefined {
  adoptIndexHtmlSession();
  const request = early.get(path);
  if (!request) return undefined;
  early.delete(path);
  return performance.now() - request.startedAt <= FRESH_MS ? request.response : undefined;
}
