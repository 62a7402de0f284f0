import { describe, expect, it, vi } from 'vitest';
import { isStaleChunkError, mayReloadForStaleChunk, reloadForStaleChunk } from './stale-chunk';

/** A tab's sessionStorage, a page reload that is only counted, and a clock the test moves. */
function tab() {
  const store = new Map<string, string>();
  const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
  let time = 1_000_000;
  const guard = { storage, reload: vi.fn(), now: () => time };
  return { guard, later: (ms: number) => void (time += ms) };
}

describe('a stale chunk', () => {
  it("is recognised in each browser's words, and nothing else is", () => {
    expect(isStaleChunkError(new TypeError('Failed to fetch dynamically imported module: https://voxline.example/assets/contacts-page-1a2b.js'))).toBe(true);
    expect(isStaleChunkError(new TypeError('error loading dynamically imported module: https://voxline.example/assets/x.js'))).toBe(true);
    expect(isStaleChunkError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isStaleChunkError(new Error('Unable to preload CSS for /assets/dialer-page-9f8e.css'))).toBe(true);
    expect(isStaleChunkError(Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isStaleChunkError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isStaleChunkError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads the page once, and not again when the reloaded page fails the same way', () => {
    const { guard } = tab();
    expect(mayReloadForStaleChunk(guard)).toBe(true);
    expect(mayReloadForStaleChunk(guard)).toBe(true);
    expect(guard.reload).not.toHaveBeenCalled();
    expect(reloadForStaleChunk(guard)).toBe(true);
    expect(mayReloadForStaleChunk(guard)).toBe(false);
    expect(reloadForStaleChunk(guard)).toBe(false);
    expect(guard.reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for a later deploy, five minutes on', () => {
    const { guard, later } = tab();
    expect(reloadForStaleChunk(guard)).toBe(true);
    later(5 * 60_000 - 1);
    expect(reloadForStaleChunk(guard)).toBe(false);
    later(1);
    expect(reloadForStaleChunk(guard)).toBe(true);
    expect(guard.reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads without a storage to remember it by', () => {
    const reload = vi.fn();
    const storage = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      setItem: () => undefined,
    };
    expect(mayReloadForStaleChunk({ storage })).toBe(false);
    expect(reloadForStaleChunk({ storage, reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
