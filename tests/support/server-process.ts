import { spawn } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';
import { freePort } from './free-port';

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  /** ws://127.0.0.1:<port> */
  wsUrl: string;
  /** What the server printed, for a failing test's message. */
  output: string[];
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Sends the signal (SIGTERM: a clean stop) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const STARTUP_LIMIT_MS = 60_000;

/** Starts Voxline as `npm start` runs it (src/server/main.ts), in a process of its own, and waits until it answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/main.ts'], {
    // DRAIN_SECONDS=0: SIGTERM stops it at once, ending any call a test left up, unless a test drains it.
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), SIMULATED_INCOMING_RATE: '0', DRAIN_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (!running) throw new Error(`the server exited while starting:\n${output.join('')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within ${STARTUP_LIMIT_MS / 1000} s:\n${output.join('')}`);
    }
    const health = await fetch(`${url}/api/v1/health`).catch(() => null);
    if (health?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (running) child.kill(signal);
      return exited;
    },
  };
}
