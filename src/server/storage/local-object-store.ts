import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertObjectKey } from './object-key';
import type { ObjectStore } from './object-store';
import { StorageUnavailableError } from './storage-unavailable-error';

const TYPE_SUFFIX = '.type';

/**
 * Objects as files under `<root>/<key>` (root: `<DATA_DIR>/objects`), for one instance. A put writes
 * a temporary file and renames it, so a reader never sees half an object; the content type is
 * kept beside it in `<key>.type`.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';

  constructor(private readonly root: string) {}

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    const file = this.pathOf(key);
    const temporary = `${file}.${randomUUID()}.tmp`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (Buffer.isBuffer(body)) await fs.writeFile(temporary, body);
      else await pipeline(body, createWriteStream(temporary));
      await fs.writeFile(`${file}${TYPE_SUFFIX}`, contentType);
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw new StorageUnavailableError(`could not store "${key}" under ${this.root}: ${(error as Error).message}`, { cause: error });
    }
  }

  async head(key: string): Promise<{ bytes: number; contentType: string } | null> {
    const file = this.pathOf(key);
    try {
      const stat = await fs.stat(file);
      const contentType = await fs.readFile(`${file}${TYPE_SUFFIX}`, 'utf8').catch(() => 'application/octet-stream');
      return { bytes: stat.size, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StorageUnavailableError(`could not read "${key}" under ${this.root}: ${(error as Error).message}`, { cause: error });
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const file = this.pathOf(key);
    try {
      const handle = await fs.open(file, 'r');
      return handle.createReadStream({ start: range?.start, end: range?.end });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StorageUnavailableError(`could not read "${key}" under ${this.root}: ${(error as Error).message}`, { cause: error });
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    try {
      await fs.rm(file, { force: true });
      await fs.rm(`${file}${TYPE_SUFFIX}`, { force: true });
    } catch (error) {
      throw new StorageUnavailableError(`could not delete "${key}" under ${this.root}: ${(error as Error).message}`, { cause: error });
    }
  }

  private pathOf(key: string) {
    assertObjectKey(key);
    return path.join(this.root, key);
  }
}
