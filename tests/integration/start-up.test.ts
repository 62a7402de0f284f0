import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';
import { TEST_PASSWORD } from '../support/accounts';
import { freePort } from '../support/free-port';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>, args: string[] = []): Run {
  // As npm start runs it (scripts/start.mjs): one Node process, which the test's signals reach.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/main.ts', ...args], {
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

/** Whether anything accepts a TCP connection at host:port (refused, or no answer within 5 s, is no). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(5_000);
    const end = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.once('connect', () => end(true));
    socket.once('error', () => end(false));
    socket.once('timeout', () => end(false));
  });
}

/** The production settings that start, but for the ones a test replaces. */
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://voxline.example',
  // openssl rand -base64 32
  AUTH_SECRET: 'GITAnA2CrHidb9oHo5DCJtvv/YHuDqVKDG+J7MFwVx0=',
  SMTP_URL: 'smtp://127.0.0.1:1',
  UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true',
  UNSAFE_ALLOW_LOCAL_TELEPHONY: 'true',
};

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

  it('--check-config refuses unsafe production settings with the same single line and exit code 1', async () => {
    const sandbox = startServer({ ...production, UNSAFE_ALLOW_SANDBOX_PAYMENTS: '' }, ['--check-config']);
    expect(await sandbox.exited).toBe(1);
    expect(sandbox.output()).toBe(
      'voxline: Invalid configuration: PAYMENTS is sandbox, which production refuses: anyone would get Platinum with the public test card. ' +
        'Set PAYMENTS=paystack and PAYSTACK_SECRET_KEY (a staging deployment may set UNSAFE_ALLOW_SANDBOX_PAYMENTS=true)\n',
    );

    const weakSecret = startServer({ ...production, AUTH_SECRET: 'password'.repeat(5) }, ['--check-config']);
    expect(await weakSecret.exited).toBe(1);
    expect(weakSecret.output()).toMatch(/^voxline: Invalid configuration: AUTH_SECRET is too easy to guess for production \(about \d+ bits of entropy, 128 needed\): make one with `openssl rand -base64 32`\n$/);

    const plainHttp = startServer({ ...production, PUBLIC_URL: 'http://voxline.example' });
    expect(await plainHttp.exited).toBe(1);
    expect(plainHttp.output()).toMatch(/^voxline: Invalid configuration: PUBLIC_URL must be an https:\/\/ address in production[^\n]*\n$/);

    const staging = startServer(production, ['--check-config']);
    expect(await staging.exited).toBe(0);
    expect(staging.output()).toBe('');
  }, 120_000);

  it('listens on the loopback interface unless HOST says otherwise', async () => {
    const run = startServer({ DATA_DIR: tempDir() });
    const url = await ready(run);
    const port = Number(new URL(url).port);
    // Another interface of this machine, when it has one, reaches nothing.
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4');
    if (outside) expect(await accepts(outside.address, port), outside.address).toBe(false);
    expect(await accepts('127.0.0.1', port)).toBe(true);
    expect(run.output()).toContain('"listening":"127.0.0.1"');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 120_000);

  it('writes no link or token from a mail to its log, whatever the request', async () => {
    // Development, where better-auth's own logger is on too.
    const run = startServer({ NODE_ENV: 'development', LOG_LEVEL: 'debug', DATA_DIR: tempDir() });
    const url = await ready(run);
    // Without an Origin, as a script: PUBLIC_URL names port 0 here, not the one picked.
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const email = 'tokens@example.com';
    expect((await post('/api/v1/auth/sign-up', { fullName: 'Token Test', email, password: TEST_PASSWORD })).status).toBe(201);
    expect((await post('/api/v1/auth/password-reset', { email })).status).toBe(200);

    const { messages } = (await (await fetch(`${url}/api/v1/dev/outbox`)).json()) as { messages: { to: string; links: string[] }[] };
    const links = messages.filter((message) => message.to === email).flatMap((message) => message.links.map((link) => new URL(link)));
    expect(links).toHaveLength(2);
    const tokens = links.map((link) => link.searchParams.get('token')!);
    for (const link of links) await fetch(`${url}${link.pathname}${link.search}`, { redirect: 'manual' });
    // A failing request is logged by the error handler, with its URL.
    await fetch(`${url}/api/v1/session?token=${tokens[0]}`);
    await fetch(`${url}/api/v1/nothing-here?token=${tokens[0]}`);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const log = run.output();
    for (const token of tokens) expect(log).not.toContain(token);
    expect(log).not.toContain('updatePassword');
    expect(log).toContain('mail kept in the outbox');
    expect(log).toMatch(/"template":"reset-password","toDomain":"example.com"/);
  }, 240_000);

  it('migrates the embedded database, refuses a second server on the same DATA_DIR, and shuts down cleanly', async () => {
    const dataDir = tempDir();
    const first = startServer({ DATA_DIR: dataDir });
    const url = await ready(first);
    const health = await fetch(`${url}/api/v1/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: { driver: 'pglite', state: 'up' } });

    const second = startServer({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
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
    // A port known in advance: the page's Origin must be PUBLIC_URL, which defaults to localhost:PORT.
    const port = String(await freePort());
    const first = startServer({ DATA_DIR: dataDir, PORT: port });
    const url = await ready(first);
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify(body) });
    expect((await post('/api/v1/auth/sign-up', { fullName: 'Restart Test', email: 'restart@example.com', password: TEST_PASSWORD })).status).toBe(201);
    const signIn = await post('/api/v1/auth/sign-in', { email: 'restart@example.com', password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((entry) => entry.split(';')[0]).join('; ');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startServer({ DATA_DIR: dataDir, PORT: port });
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
