import { mkdtemp, readFile, rm, writeFile, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioSpool, type SpoolDisk } from './audio-spool';
import { LocalObjectStore } from './local-object-store';
import type { ObjectStore } from './object-store';
import { StorageUnavailableError } from './storage-unavailable-error';

/** A local store that can be taken away, as an unreachable bucket would be. */
class SwitchableStore extends LocalObjectStore {
  reachable = true;
  override async put(...args: Parameters<ObjectStore['put']>) {
    if (!this.reachable) throw new StorageUnavailableError('the object store did not answer');
    return super.put(...args);
  }
}

const fullDisk: SpoolDisk = {
  open: async () => ({
    write: () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
    close: async () => {},
  }),
};

async function text(stream: NodeJS.ReadableStream | null) {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('AudioSpool', () => {
  let dir: string;
  let store: SwitchableStore;
  const log = { warn: vi.fn() };
  const spoolOn = (disk?: SpoolDisk) => new AudioSpool(path.join(dir, 'spool'), store, log, disk);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'voxline-spool-'));
    store = new SwitchableStore(path.join(dir, 'objects'));
    log.warn.mockReset();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes as the call goes, serves the file while it is written, then puts it in the store', async () => {
    const spool = spoolOn();
    const file = spool.open('recordings/u1/a.ogg', 'audio/ogg');
    file.write(Buffer.from('page one,'));
    file.write(Buffer.from('page two'));
    await vi.waitFor(() => expect(file.bytes).toBe(17));
    expect(await spool.head('recordings/u1/a.ogg')).toEqual({ bytes: 17, contentType: 'audio/ogg' });
    expect(await text(await spool.read('recordings/u1/a.ogg', { start: 5, end: 7 }))).toBe('one');
    expect(await file.finish()).toBe('saved');
    expect(await text(await store.read('recordings/u1/a.ogg'))).toBe('page one,page two');
    await expect(stat(path.join(dir, 'spool/recordings/u1/a.ogg'))).rejects.toThrow(/ENOENT/);
    expect(await text(await spool.read('recordings/u1/a.ogg'))).toBe('page one,page two');
  });

  it('keeps a file the store did not take, serves it, and stores it on retry, telling the owners', async () => {
    const spool = spoolOn();
    const stored: string[] = [];
    spool.onStored((key) => stored.push(key));
    store.reachable = false;
    const file = spool.open('voicemail/u1/m.ogg', 'audio/ogg');
    file.write(Buffer.from('message'));
    expect(await file.finish()).toBe('pending_upload');
    expect(await readFile(path.join(dir, 'spool/voicemail/u1/m.ogg.pending'), 'utf8')).toBe('audio/ogg');
    expect(await text(await spool.read('voicemail/u1/m.ogg'))).toBe('message');
    expect(await spool.retryPending()).toEqual([]);
    expect(stored).toEqual([]);
    store.reachable = true;
    expect(await spool.retryPending()).toEqual(['voicemail/u1/m.ogg']);
    expect(stored).toEqual(['voicemail/u1/m.ogg']);
    expect(await text(await store.read('voicemail/u1/m.ogg'))).toBe('message');
    expect(await spool.retryPending()).toEqual([]);
  });

  it('marks the file failed on a full disk, logs it once and never throws into the call', async () => {
    const spool = spoolOn(fullDisk);
    const file = spool.open('recordings/u1/b.ogg', 'audio/ogg');
    expect(() => {
      file.write(Buffer.from('one'));
      file.write(Buffer.from('two'));
    }).not.toThrow();
    expect(await file.finish()).toBe('failed');
    expect(file.bytes).toBe(0);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(await store.head('recordings/u1/b.ogg')).toBeNull();
  });

  it('marks the file failed when its folder cannot be made', async () => {
    await writeFile(path.join(dir, 'spool'), 'a file where the spool folder should be');
    const file = spoolOn().open('recordings/u1/c.ogg', 'audio/ogg');
    file.write(Buffer.from('x'));
    expect(await file.finish()).toBe('failed');
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('adopts a file a crash left in the spool, and answers failed when there is none', async () => {
    await mkdir(path.join(dir, 'spool/recordings/u1'), { recursive: true });
    await writeFile(path.join(dir, 'spool/recordings/u1/d.ogg'), 'cut at a page');
    const spool = spoolOn();
    expect(await spool.adopt('recordings/u1/d.ogg', 'audio/ogg')).toBe('saved');
    expect(await text(await store.read('recordings/u1/d.ogg'))).toBe('cut at a page');
    expect(await spool.adopt('recordings/u1/gone.ogg', 'audio/ogg')).toBe('failed');
  });

  it('adopts into the spool as pending when the store is away', async () => {
    await mkdir(path.join(dir, 'spool/recordings/u1'), { recursive: true });
    await writeFile(path.join(dir, 'spool/recordings/u1/e.ogg'), 'cut');
    store.reachable = false;
    const spool = spoolOn();
    expect(await spool.adopt('recordings/u1/e.ogg', 'audio/ogg')).toBe('pending_upload');
    store.reachable = true;
    expect(await spool.retryPending()).toEqual(['recordings/u1/e.ogg']);
  });

  it('deletes a file from the spool and the store', async () => {
    store.reachable = false;
    const spool = spoolOn();
    const file = spool.open('recordings/u1/f.ogg', 'audio/ogg');
    file.write(Buffer.from('x'));
    expect(await file.finish()).toBe('pending_upload');
    await spool.delete('recordings/u1/f.ogg');
    expect(await spool.head('recordings/u1/f.ogg')).toBeNull();
    expect(await spool.retryPending()).toEqual([]);
  });
});
