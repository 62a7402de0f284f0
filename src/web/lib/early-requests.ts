/**
 * GET requests a page started before the code that reads them loaded: index.html's landing script
 * (src/web/landing) asks for the session and for the landing page's data while the HTML is read.
 * The first api.get of the same path takes the answer; every later one asks the server again, as
 * does one that comes too late or finds the early fetch failed.
 */

/** Older than this, an early answer is dropped unread: the page took so long that it may have changed. */
const FRESH_MS = 10_000;

interface EarlyRequest {
  startedAt: number;
  /** Null when the server could not be reached: the reader then asks again and reports that failure itself. */
  response: Promise<Response | null>;
}

const early = new Map<string, EarlyRequest>();

const fromIndexHtml = globalThis as { __voxlineEarly?: Record<string, Promise<Response | null>> };

/**
 * Files what the landing script left, on the first read: it ran as the page's HTML was read, and the
 * first read comes as the page's modules have loaded, so the answers are counted from then.
 */
function adoptLandingRequests() {
  const requests = fromIndexHtml.__voxlineEarly;
  if (!requests) return;
  delete fromIndexHtml.__voxlineEarly;
  for (const [path, response] of Object.entries(requests)) early.set(path, { startedAt: performance.now(), response });
}

/** The early answer for `path`, once: undefined when none was asked for, it was taken already, or it is stale. */
export function takeEarly(path: string): Promise<Response | null> | undefined {
  adoptLandingRequests();
  const request = early.get(path);
  if (!request) return undefined;
  early.delete(path);
  return performance.now() - request.startedAt <= FRESH_MS ? request.response : undefined;
}
