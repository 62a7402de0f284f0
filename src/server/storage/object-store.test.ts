import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../../tests/support/s3-server';
import { LocalObjectStore } from './local-object-store';
import type { ObjectStore } from './object-store';
import { StorageUnavailableError } from './storage-unavailable-error';

async function text(stream: Readable | null) {
  if (!stream) return null;
  return Buffer.concat(await stream.toArray()).toString('utf8');
}

/** What every store does, whichever STORAGE names. */
function storeContract(name: string, setUp: () => Promise<{ store: ObjectStore; tearDown: () => Promise<void> }>) {
  describe(`${name}: the ObjectStore contract`, () => {
    let store: ObjectStore;
    let tearDown: () => Promise<void>;
    beforeAll(async () => ({ store, tearDown } = await setUp()));
    afterAll(() => tearDown());

    it('stores an object and answers its size and type', async () => {
      await store.put('recordings/u1/a.ogg', Buffer.from('0123456789'), 'audio/ogg');
      expect(await store.head('recordings/u1/a.ogg')).toEqual({ bytes: 10, contentType: 'audio/ogg' });
      expect(await text(await store.read('recordings/u1/a.ogg'))).toBe('0123456789');
    });

    it('reads a range of bytes, both ends included', async () => {
      await store.put('recordings/u1/b.ogg', Buffer.from('abcdefghij'), 'audio/ogg');
      expect(await text(await store.read('recordings/u1/b.ogg', { start: 2, end: 5 }))).toBe('cdef');
    });

    it('takes a stream, and replaces what was under the key', async () => {
      await store.put('voicemail/u1/c.ogg', Buffer.from('old'), 'audio/ogg');
      await store.put('voicemail/u1/c.ogg', Readable.from([Buffer.from('new '), Buffer.from('body')]), 'audio/ogg');
      expect(await text(await store.read('voicemail/u1/c.ogg'))).toBe('new body');
    });

    it('answers null for an object that is not there', async () => {
      expect(await store.head('recordings/u1/none.ogg')).toBeNull();
      expect(await store.read('recordings/u1/none.ogg')).toBeNull();
    });

    it('deletes, and deleting what is not there is not an error', async () => {
      await store.put('recordings/u1/d.ogg', Buffer.from('x'), 'audio/ogg');
      await store.delete('recordings/u1/d.ogg');
      expect(await store.head('recordings/u1/d.ogg')).toBeNull();
      await expect(store.delete('recordings/u1/d.ogg')).resolves.toBeUndefined();
    });

    it('refuses keys that could leave its folder', async () => {
      for (const key of ['../escape.ogg', '/etc/passwd', 'recordings/../../x', '', 'a//b']) {
        await expect(store.put(key, Buffer.from('x'), 'audio/ogg')).rejects.toThrow(/not an object key/);
      }
    });
  });
}

storeContract('LocalObjectStore', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'voxline-objects-'));
  return { store: new LocalObjectStore(root), tearDown: () => rm(root, { recursive: true, force: true }) };
});

storeContract('S3ObjectStore', async () => {
  const server = await startS3Server();
  return { store: server.store(), tearDown: () => server.close() };
});

describe('LocalObjectStore', () => {
  it('leaves no temporary file behind, and none in place of a put that failed', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'voxline-objects-'));
    const store = new LocalObjectStore(root);
    await store.put('recordings/u1/a.ogg', Buffer.from('x'), 'audio/ogg');
    const failing = new Readable({ read() { this.destroy(new Error('the source broke')); } });
    await expect(store.put('recordings/u1/b.ogg', failing, 'audio/ogg')).rejects.toBeInstanceOf(StorageUnavailableError);
    expect((await readdir(path.join(root, 'recordings/u1'))).sort()).toEqual(['a.ogg', 'a.ogg.type']);
    await rm(root, { recursive: true, force: true });
  });
});

describe('S3ObjectStore', () => {
  it('fails with StorageUnavailableError when the server cannot be reached', async () => {
    const server = await startS3Server();
    const store = server.store();
    await server.close();
    await expect(store.put('recordings/u1/a.ogg', Buffer.from('x'), 'audio/ogg')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(store.head('recordings/u1/a.ogg')).rejects.toThrow(/bucket "voxline-test"/);
  });
});
