import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const children: ChildProcess[] = [];
const dirs: string[] = [];

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Run {
  const child = spawn(tsx, ['src/server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', ...env },
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function ready(run: Run): Promise<string> {
  // Generous: a loaded machine can take long to compile the server and open the embedded database.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const match = /Voxline is ready at (http:\/\/localhost:\d+)/.exec(run.output());
    if (match) return match[1]!;
    if (run.child.exitCode !== null) throw new Error(`server exited early:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready:\n${run.output()}`);
}

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-start-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('starting the server', () => {
  it('exits with one line naming a bad variable', async () => {
    const run = startServer({ PORT: 'abc' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toBe('voxline: Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc")\n');
  });

  it('refuses TELEPHONY=vonage without its variables, in one line naming each', async () => {
    const run = startServer({ TELEPHONY: 'vonage', VONAGE_API_KEY: 'key', PUBLIC_URL: 'https://voxline.example' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toBe(
      'voxline: Invalid configuration: VONAGE_API_SECRET is required when TELEPHONY=vonage; ' +
        'VONAGE_APPLICATION_ID is required when TELEPHONY=vonage; VONAGE_PRIVATE_KEY is required when TELEPHONY=vonage; ' +
        'VONAGE_SIGNATURE_SECRET is required when TELEPHONY=vonage\n',
    );
  });

  it('migrates the embedded database, refuses a second server on the same DATA_DIR, and shuts down cleanly', async () => {
    const dataDir = tempDir();
    const first = startServer({ DATA_DIR: dataDir });
    const url = await ready(first);
    const health = await fetch(`${url}/api/v1/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: { driver: 'pglite', state: 'up' } });

    const second = startServer({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    // tsx runs the server in a child process of its own, so the pid named is that one's.
    expect(second.output()).toMatch(
      new RegExp(`^voxline: DATA_DIR ${dataDir} is in use by another Voxline server \\(pid \\d+\\); stop it or set DATA_DIR to another directory\n$`),
    );

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'voxline.lock'))).toBe(false);

    const again = startServer({ DATA_DIR: dataDir });
    await ready(again);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 240_000);

  it('keeps a signed-in session across a restart', async () => {
    const dataDir = tempDir();
    const first = startServer({ DATA_DIR: dataDir });
    const url = await ready(first);
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify(body) });
    expect((await post('/api/v1/auth/sign-up', { fullName: 'Restart Test', email: 'restart@example.com', password: 'a good password' })).status).toBe(201);
    const signIn = await post('/api/v1/auth/sign-in', { email: 'restart@example.com', password: 'a good password' });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((entry) => entry.split(';')[0]).join('; ');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startServer({ DATA_DIR: dataDir });
    const secondUrl = await ready(second);
    const session = await fetch(`${secondUrl}/api/v1/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect((await session.json()).user).toMatchObject({ email: 'restart@example.com', fullName: 'Restart Test' });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 240_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)('runs on PostgreSQL when DATABASE_URL is set', async () => {
    const run = startServer({ DATABASE_URL: process.env.TEST_DATABASE_URL!, DATA_DIR: tempDir() });
    const url = await ready(run);
    const health = await fetch(`${url}/api/v1/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: { driver: 'postgres', state: 'up' } });
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 60_000);
});
