import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { resolveAuthSecret } from './secret';

const run = promisify(execFile);
const dirs: string[] = [];

function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-secret-'));
  dirs.push(dir);
  return dir;
}

const configFor = (dir: string, AUTH_SECRET?: string) => ({ dataDir: dir, AUTH_SECRET }) as Config;

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('resolveAuthSecret', () => {
  it('takes AUTH_SECRET when it is set, writing nothing', () => {
    const dir = dataDir();
    expect(resolveAuthSecret(configFor(dir, 'x'.repeat(32)))).toBe('x'.repeat(32));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('makes a key once and keeps it in DATA_DIR, readable by its owner only', () => {
    const dir = path.join(dataDir(), 'not-yet-made');
    const first = resolveAuthSecret(configFor(dir));
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(resolveAuthSecret(configFor(dir))).toBe(first);
    expect(fs.readdirSync(dir)).toEqual(['auth-secret']);
    expect(fs.statSync(path.join(dir, 'auth-secret')).mode & 0o777).toBe(0o600);
  });

  it('gives processes starting together on one DATA_DIR the same key', async () => {
    const dir = dataDir();
    // Each process loads the module, then waits for the same instant, so that they really race.
    const startAt = Date.now() + 4000;
    const script = `import('${path.resolve('src/server/auth/secret.ts')}').then((m) => {
      while (Date.now() < ${startAt});
      process.stdout.write(m.resolveAuthSecret({ dataDir: ${JSON.stringify(dir)} }));
    })`;
    const keys = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', '-e', script]).then(({ stdout }) => stdout)),
    );
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(fs.readFileSync(path.join(dir, 'auth-secret'), 'utf8'));
    expect(fs.readdirSync(dir)).toEqual(['auth-secret']);
  });
});
