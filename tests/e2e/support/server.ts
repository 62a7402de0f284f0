import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';
import { ADMIN_EMAIL } from './users';

/**
 * Starts the real Voxline server for the E2E suite: `src/server/main.ts` under tsx with the Node
 * flags of `npm start`, on a free port, with a fresh temporary DATA_DIR, and waits for its
 * "Voxline is ready at <url>" log line.
 */

const READY_MESSAGE = /^Voxline is ready at (http:\/\/\S+)$/;
const STOP_GRACE_MS = 15_000;
const OUTPUT_TAIL_LINES = 200;

export interface StartServerOptions {
  /** Repository root (holds src/server/main.ts and node_modules). */
  root: string;
  /** How long to wait for the ready line; 60 s by default. */
  readyTimeoutMs?: number;
  /** Extra environment variables for the server. */
  env?: NodeJS.ProcessEnv;
  /** Echo the server's output to this process's stderr as it comes (VOXLINE_E2E_SERVER_LOG=1). */
  echo?: boolean;
}

export interface StartedServer {
  /** The URL from the ready line, e.g. http://localhost:43127 (no trailing slash). */
  url: string;
  pid: number;
  /** Temporary folder holding `data/` (the DATA_DIR) and `server.log`. */
  tempDir: string;
  dataDir: string;
  logFile: string;
  /** Sends SIGTERM, waits for the exit (SIGKILL after 15 s), then removes tempDir unless `keep`. */
  stop(options?: { keep?: boolean }): Promise<void>;
}

class ServerStartError extends Error {
  override readonly name = 'ServerStartError';
}

/** The last lines of output, kept for error messages. */
class OutputTail {
  private readonly lines: string[] = [];
  push(line: string) {
    this.lines.push(line);
    if (this.lines.length > OUTPUT_TAIL_LINES) this.lines.shift();
  }
  toString() {
    return this.lines.length ? this.lines.join('\n') : '(no output)';
  }
}

function readyUrl(line: string): string | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { msg, url } = entry as { msg?: unknown; url?: unknown };
  if (typeof msg !== 'string' || !READY_MESSAGE.test(msg)) return undefined;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url.replace(/\/+$/, '') : undefined;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, timeoutMs);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/**
 * A port nothing listens on now. The server is given a real number rather than PORT=0 because its
 * PUBLIC_URL (links in mail, trusted origin) defaults to http://localhost:PORT.
 */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startServer({ root, readyTimeoutMs = 60_000, env = {}, echo = false }: StartServerOptions): Promise<StartedServer> {
  const entry = path.join(root, 'src/server/main.ts');
  if (!fs.existsSync(entry)) throw new ServerStartError(`cannot start the server: ${entry} does not exist`);

  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-e2e-'));
  const dataDir = path.join(tempDir, 'data');
  const logFile = path.join(tempDir, 'server.log');
  const log = fs.createWriteStream(logFile);
  const tail = new OutputTail();

  const serverEnv: NodeJS.ProcessEnv = { ...process.env };
  // A developer's own settings must not leak in: the suite always gets an embedded database in a
  // fresh folder, on a free loopback port.
  delete serverEnv.DATABASE_URL;
  delete serverEnv.PUBLIC_URL;
  Object.assign(serverEnv, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    // A simulated incoming call at a random moment would make a test's user busy.
    SIMULATED_INCOMING_RATE: '0',
    // Each browser context presents an address of its own (fixtures.ts), as behind a load balancer.
    TRUST_PROXY: '127.0.0.1,::1',
    ADMIN_EMAILS: ADMIN_EMAIL,
    // The suite's SIGTERM stops the server at once, ending any call a test left up, rather than draining.
    DRAIN_SECONDS: '0',
    ...env,
  });

  // `node --import tsx` rather than `npx tsx`: one process, so SIGTERM reaches the server itself.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', entry], {
    cwd: root,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let ready = false;
  const onLine = (stream: 'stdout' | 'stderr') => (line: string) => {
    log.write(`${line}\n`);
    tail.push(stream === 'stderr' ? `[stderr] ${line}` : line);
    if (echo) process.stderr.write(`[voxline] ${line}\n`);
  };
  // Both pipes are drained for the server's whole life, or it would block once a pipe fills.
  const stdout = readline.createInterface({ input: child.stdout! });
  const stderr = readline.createInterface({ input: child.stderr! });
  stdout.on('line', onLine('stdout'));
  stderr.on('line', onLine('stderr'));

  const removeTempDir = () => fs.rmSync(tempDir, { recursive: true, force: true, maxRetries: 3 });
  const closeLog = () => new Promise<void>((resolve) => log.end(resolve));

  const url = await new Promise<string>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      stdout.off('line', onReadyLine);
      child.off('close', onEarlyExit);
      child.off('error', onError);
    };
    const onReadyLine = (line: string) => {
      const found = readyUrl(line);
      if (!found) return;
      cleanup();
      resolve(found);
    };
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cleanup();
      reject(new ServerStartError(`the Voxline server exited before it was ready (${signal ?? `code ${code}`}). Its output:\n${tail}`));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new ServerStartError(`cannot start the Voxline server: ${error.message}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new ServerStartError(`the Voxline server was not ready within ${readyTimeoutMs / 1000} s. Its output:\n${tail}`));
    }, readyTimeoutMs);
    stdout.on('line', onReadyLine);
    // 'close' comes after the output pipes are drained, so the error shows the last lines.
    child.once('close', onEarlyExit);
    child.once('error', onError);
  }).catch(async (error: unknown) => {
    await waitForExit(child, 5_000);
    await closeLog();
    removeTempDir();
    throw error;
  });
  ready = true;

  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping || !ready) return;
    process.stderr.write(
      `\n[voxline e2e] the server stopped during the run (${signal ?? `code ${code}`}); its log is ${logFile}. Last output:\n${tail}\n`,
    );
  });

  return {
    url,
    pid: child.pid!,
    tempDir,
    dataDir,
    logFile,
    async stop({ keep = false } = {}) {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (!(await waitForExit(child, STOP_GRACE_MS))) {
          process.stderr.write(`[voxline e2e] the server did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM; killing it\n`);
          child.kill('SIGKILL');
          await waitForExit(child, 5_000);
        }
      }
      const failed = child.exitCode !== 0;
      await closeLog();
      if (keep || failed) {
        process.stderr.write(`[voxline e2e] server data and log kept in ${tempDir}${failed ? ` (it exited with ${child.signalCode ?? `code ${child.exitCode}`})` : ''}\n`);
      } else {
        removeTempDir();
      }
    },
  };
}
