import { performance } from 'node:perf_hooks';
import { startServerProcess, type ServerProcess } from '../../tests/support/server-process';
import { BENCH_ORIGIN } from '../media/protocol';
import type { Balancer } from './balancer';

/** What every instance of a run shares: the database, Redis, the session secret and the drain limit. */
export interface SharedSettings {
  databaseUrl: string;
  redisUrl: string;
  secret: string;
  drainSeconds: number;
}

/** A Voxline instance of the run: `npm start`'s src/server/main.ts in a process of its own. */
export interface VoxlineInstance {
  name: string;
  port: number;
  process: ServerProcess;
  /**
   * performance.now() of its start, of the balancer first seeing it ready, of its SIGTERM, of the
   * balancer first seeing it not ready after that, and of its exit.
   */
  startedAt: number;
  readyAt: number | null;
  sigtermAt: number | null;
  unreadyAt: number | null;
  exitedAt: number | null;
  exitCode: number | null;
}

const POLL_MS = 100;

/**
 * Starts an instance as production runs it, behind the balancer: the bench's users' sessions are
 * good on it (the same AUTH_SECRET and PUBLIC_URL as bench/load's voxline-instance.ts, which made
 * them), and its first SIGTERM drains it (docs/deploy.md#draining).
 */
export async function startVoxline(name: string, shared: SharedSettings, balancer: Balancer): Promise<VoxlineInstance> {
  const startedAt = performance.now();
  const server = await startServerProcess({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: BENCH_ORIGIN,
    AUTH_SECRET: shared.secret,
    DATABASE_URL: shared.databaseUrl,
    REDIS_URL: shared.redisUrl,
    DRAIN_SECONDS: String(shared.drainSeconds),
    // Its calls are PCM on the media socket, lighter than the Opus calls the default capacity is sized for.
    MAX_CALLS_PER_INSTANCE: '1000',
    // The bench's browsers send their audio on the call's media socket, through the balancer.
    WEBRTC: 'false',
    // What production requires, though the bench sends no mail and runs the built-in providers.
    SMTP_URL: 'smtp://127.0.0.1:1',
    UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true',
    UNSAFE_ALLOW_LOCAL_TELEPHONY: 'true',
  });
  const instance: VoxlineInstance = { name, port: Number(new URL(server.url).port), process: server, startedAt, readyAt: null, sigtermAt: null, unreadyAt: null, exitedAt: null, exitCode: null };
  void server.exited.then((code) => {
    instance.exitedAt = performance.now();
    instance.exitCode = code;
  });
  balancer.add(name, instance.port);
  return instance;
}

/** Resolves once the balancer sends new work to `name`. */
export async function readyBehind(balancer: Balancer, name: string, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!balancer.pool.all.some((upstream) => upstream.name === name && upstream.ready)) {
    if (performance.now() > deadline) throw new Error(`${name} was not ready behind the balancer within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * One step of a rolling upgrade: SIGTERM to `old`, its replacement started at once (the same code,
 * a new process and port, registered with the balancer), then `old` left to drain until it exits
 * by itself, and the replacement waited for until the balancer finds it ready.
 */
export async function replace(
  old: VoxlineInstance,
  replacementName: string,
  { shared, balancer, readyLimitMs, started }: { shared: SharedSettings; balancer: Balancer; readyLimitMs: number; started: (replacement: VoxlineInstance) => void },
): Promise<VoxlineInstance> {
  old.sigtermAt = performance.now();
  const exited = old.process.stop('SIGTERM');
  const replacement = await startVoxline(replacementName, shared, balancer);
  started(replacement);
  await readyBehind(balancer, replacementName, readyLimitMs);
  await exited;
  balancer.remove(old.name);
  return replacement;
}
