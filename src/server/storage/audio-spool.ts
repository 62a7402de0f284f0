import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertObjectKey } from './object-key';
import type { ObjectStore, StoredAudioState } from './object-store';

/** Reads audio wherever it is; what the routes serve from (serve-audio.ts). */
export type StoredAudio = Pick<ObjectStore, 'head' | 'read'>;

/** The one disk operation the spool needs to be able to fail in tests: appending to a file. */
export interface SpoolDisk {
  open(file: string): Promise<{ write(bytes: Uint8Array): Promise<unknown>; close(): Promise<void> }>;
}

const appendingDisk: SpoolDisk = {
  open: (file) => fs.open(file, 'a'),
};

/** What the spool logs with (app.log fits). */
export interface SpoolLog {
  warn(obj: object, msg: string): void;
}

/** A file being written as the call goes; see AudioSpool.open. */
export interface SpoolFile {
  /** Appends; never throws: a disk error marks the file failed, logged once, and the call goes on. */
  write(bytes: Uint8Array): void;
  /** Closes the file and hands it to the store. */
  finish(): Promise<StoredAudioState>;
  /** Bytes on disk so far. */
  readonly bytes: number;
}

/** Beside a finished file waiting for the store: its content type, so a restart knows it is whole. */
const PENDING_SUFFIX = '.pending';

/**
 * Where recorded audio is written as a call goes: files under `<DATA_DIR>/spool/<key>`, handed to
 * the object store when finished (docs/deploy.md#storage). A store that cannot be reached leaves
 * the file here, marked pending, for retryPending; until then it is served from here.
 */
export class AudioSpool implements StoredAudio {
  private readonly stored: ((key: string) => void)[] = [];
  /** Files open for writing on this instance, by key, with their content type: served from here, never retried. */
  private readonly writing = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly store: ObjectStore,
    private readonly log: SpoolLog,
    private readonly disk: SpoolDisk = appendingDisk,
  ) {}

  /** Tells `listener` of each key the store took from the spool after the owner was told 'pending_upload'. */
  onStored(listener: (key: string) => void): void {
    this.stored.push(listener);
  }

  open(key: string, contentType: string): SpoolFile {
    const file = this.pathOf(key);
    this.writing.set(key, contentType);
    let bytes = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      this.log.warn({ err: error, objectKey: key }, 'spool: the audio file could not be written; the call goes on without it');
    };
    const handle = fs
      .mkdir(path.dirname(file), { recursive: true })
      .then(() => this.disk.open(file))
      .catch((error: unknown) => {
        fail(error);
        return null;
      });
    // Writes queue behind each other so that pages land in order; the queue never rejects.
    let queue: Promise<unknown> = handle;
    return {
      write: (chunk) => {
        if (failed) return;
        queue = queue.then(async () => {
          const opened = await handle;
          if (!opened || failed) return;
          try {
            await opened.write(chunk);
            bytes += chunk.length;
          } catch (error) {
            fail(error);
          }
        });
      },
      finish: async () => {
        await queue;
        const opened = await handle;
        await opened?.close().catch((error: unknown) => fail(error));
        this.writing.delete(key);
        if (failed || bytes === 0) {
          await fs.rm(file, { force: true }).catch(() => {});
          return 'failed';
        }
        return this.hand(key, contentType, false);
      },
      get bytes() {
        return bytes;
      },
    };
  }

  /**
   * Takes over a file a stopped instance left here (the restart of this machine): stored as it is,
   * since an Ogg file cut at a page boundary plays. No such file: 'failed'.
   */
  async adopt(key: string, contentType: string): Promise<StoredAudioState> {
    const file = this.pathOf(key);
    const size = await fs.stat(file).then((stat) => stat.size, () => 0);
    if (size === 0) {
      await fs.rm(file, { force: true });
      return (await this.store.head(key).catch(() => null)) ? 'saved' : 'failed';
    }
    return this.hand(key, contentType, false);
  }

  /** Puts each finished file still waiting into the store; answers the keys it stored (listeners told). */
  async retryPending(): Promise<string[]> {
    const saved: string[] = [];
    for (const marker of await this.markers()) {
      const file = marker.slice(0, -PENDING_SUFFIX.length);
      const key = path.relative(this.root, file).split(path.sep).join('/');
      if (this.writing.has(key)) continue;
      const contentType = await fs.readFile(marker, 'utf8').catch(() => null);
      if (contentType === null) continue;
      if ((await this.hand(key, contentType, true)) === 'saved') saved.push(key);
    }
    return saved;
  }

  async head(key: string): Promise<{ bytes: number; contentType: string } | null> {
    const local = await this.local(key);
    return local ? { bytes: local.bytes, contentType: local.contentType } : this.store.head(key);
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const local = await this.local(key);
    if (!local) return this.store.read(key, range);
    const handle = await fs.open(local.file, 'r');
    return handle.createReadStream({ start: range?.start, end: range?.end });
  }

  /** Removes the file from the spool (a pending one) and the store; fails when the store cannot be reached. */
  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await this.store.delete(key);
    await fs.rm(`${file}${PENDING_SUFFIX}`, { force: true });
    await fs.rm(file, { force: true });
  }

  /**
   * Puts a finished file in the store and removes it from here: 'saved'. The store away: the file
   * stays, marked with its content type, 'pending_upload'.
   */
  private async hand(key: string, contentType: string, retry: boolean): Promise<StoredAudioState> {
    const file = this.pathOf(key);
    const marker = `${file}${PENDING_SUFFIX}`;
    try {
      // Marked before the upload, so that a crash during it leaves a file known to be whole.
      await fs.writeFile(marker, contentType);
      await this.store.put(key, await fs.readFile(file), contentType);
    } catch (error) {
      if (!retry) this.log.warn({ err: error, objectKey: key }, 'spool: the store did not take the audio file; it waits in the spool');
      return 'pending_upload';
    }
    await fs.rm(marker, { force: true });
    await fs.rm(file, { force: true });
    if (retry) for (const listener of this.stored) listener(key);
    return 'saved';
  }

  /** The spool's copy of `key`, when it holds one: being written, or waiting for the store. */
  private async local(key: string) {
    const file = this.pathOf(key);
    const contentType = this.writing.get(key) ?? await fs.readFile(`${file}${PENDING_SUFFIX}`, 'utf8').catch(() => null);
    if (contentType === null) return null;
    const bytes = await fs.stat(file).then((stat) => stat.size, () => null);
    return bytes === null ? null : { file, bytes, contentType };
  }

  private async markers(): Promise<string[]> {
    const entries = await fs.readdir(this.root, { recursive: true }).catch(() => [] as string[]);
    return entries.filter((entry) => entry.endsWith(PENDING_SUFFIX)).map((entry) => path.join(this.root, entry));
  }

  private pathOf(key: string) {
    assertObjectKey(key);
    return path.join(this.root, key);
  }
}
