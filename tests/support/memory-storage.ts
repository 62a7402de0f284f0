import { Readable } from 'node:stream';
import type { ObjectStore } from '../../src/server/storage/object-store';

/** An object store in memory, and a spool that hands each file to it when finished. */
export function memoryStorage() {
  const objects = new Map<string, Buffer>();
  const store: ObjectStore = {
    kind: 'local',
    put: async (key, body) => void objects.set(key, Buffer.isBuffer(body) ? body : Buffer.concat(await body.toArray())),
    head: async (key) => (objects.has(key) ? { bytes: objects.get(key)!.length, contentType: 'audio/ogg' } : null),
    read: async (key, range) => {
      const bytes = objects.get(key);
      return bytes ? Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]) : null;
    },
    delete: async (key) => void objects.delete(key),
  };
  const stored: ((key: string) => void)[] = [];
  const spool = {
    open: (key: string) => {
      const chunks: Uint8Array[] = [];
      return {
        write: (bytes: Uint8Array) => chunks.push(bytes),
        finish: async () => {
          await store.put(key, Buffer.concat(chunks), 'audio/ogg');
          for (const listener of stored) listener(key);
          return 'saved' as const;
        },
        get bytes() {
          return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
        },
      };
    },
    onStored: (listener: (key: string) => void) => void stored.push(listener),
    adopt: async (key: string) => (objects.has(key) ? ('saved' as const) : ('failed' as const)),
    read: (key: string) => store.read(key),
  };
  return { objects, store, spool };
}
