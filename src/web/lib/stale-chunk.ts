import { browserLocation } from './browser-location';

// What each browser (and Vite's preloading of a page's CSS) throws when a page's chunk cannot be fetched.
const CHUNK_LOAD_FAILURES = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

const RELOADED_AT_KEY = 'voxline.stale-chunk-reload';
// A reload this recent already fetched the deployed version: the chunk is missing for another reason,
// and reloading again would loop.
const RELOAD_SPACING_MS = 5 * 60_000;

/** Whether a page's code could not be fetched: after a deploy, the chunks of the version this tab runs are gone. */
export function isStaleChunkError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_LOAD_FAILURES.test(error.message));
}

interface ReloadGuard {
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  reload?: () => void;
  now?: () => number;
}

function lastReload(storage: ReloadGuard['storage'], now: () => number) {
  const store = storage ?? window.sessionStorage;
  const reloadedAt = Number(store.getItem(RELOADED_AT_KEY) ?? Number.NEGATIVE_INFINITY);
  return { store, allowed: now() - reloadedAt >= RELOAD_SPACING_MS };
}

/** Whether reloadForStaleChunk would reload now; it changes nothing. */
export function mayReloadForStaleChunk({ storage, now = Date.now }: ReloadGuard = {}): boolean {
  try {
    return lastReload(storage, now).allowed;
  } catch {
    return false;
  }
}

/**
 * Reloads the page once to fetch the deployed version, unless this tab did so in the last five
 * minutes (sessionStorage); answers whether it reloaded. Without storage there is no guard, so no reload.
 */
export function reloadForStaleChunk({ storage, reload = () => browserLocation.reload(), now = Date.now }: ReloadGuard = {}): boolean {
  try {
    const { store, allowed } = lastReload(storage, now);
    if (!allowed) return false;
    store.setItem(RELOADED_AT_KEY, String(now()));
  } catch {
    return false;
  }
  reload();
  return true;
}
