/** What index.html's inline script leaves: its GET /api/v1/session, or null when that fetch failed. */
type EarlySession = Promise<Response | null>;

const holder = globalThis as { __voxlineEarlySession?: EarlySession };

/**
 * The answer to the session request index.html made before any module loaded, once: the first
 * session check takes it, every later one asks the server again. Undefined where the page had no
 * such script (tests, an older cached page) or it was taken already.
 */
export function takeEarlySession(): EarlySession | undefined {
  const early = holder.__voxlineEarlySession;
  delete holder.__voxlineEarlySession;
  return early;
}
