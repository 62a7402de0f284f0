import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedBytes } from './recorded-bytes';

describe('recordedBytes', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });
  const dataDir = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorded-bytes-'));
    folders.push(folder);
    return folder;
  };
  const write = (root: string, relative: string, bytes: number) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), Buffer.alloc(bytes));
  };

  it('is 0 for a DATA_DIR with no recordings yet', () => {
    expect(recordedBytes(dataDir())).toBe(0);
  });

  it('sums recordings being written and finalised, and nothing else in DATA_DIR', () => {
    const root = dataDir();
    write(root, 'spool/recordings/user-a/one.ogg', 1000);
    write(root, 'objects/recordings/user-b/two.ogg', 250);
    write(root, 'spool/voicemail/user-a/message.ogg', 7000);
    write(root, 'objects/greetings/user-a.ogg', 9000);
    expect(recordedBytes(root)).toBe(1250);
  });
});
