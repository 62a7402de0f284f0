import type { Readiness } from '../../common/api/health';
import type { DatabaseHandle } from '../db/client';
import type { Draining } from './draining';

/** A balancer polls every second or so and waits a few: a dependency slower than this counts as away. */
const READINESS_TIMEOUT_MS = 1_000;

export interface ReadinessDependencies {
  database: Pick<DatabaseHandle, 'ping'>;
  /** The Redis shared by the instances (REDIS_URL), when there is one. */
  redis?: { ping(): Promise<unknown> } | null;
  draining: Draining;
  /** The calls this instance carries now. */
  carriedCalls: () => number;
  maxCalls: number;
  log: { warn(obj: object, msg: string): void };
  timeoutMs?: number;
}

class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
}

/** Resolves when `ping` does; rejects with NoAnswer after `ms`. */
async function within<T>(ms: number, ping: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const answered = ping();
  // The ping may still fail after the timeout: that failure is already reported as NoAnswer.
  answered.catch(() => undefined);
  try {
    return await Promise.race([answered, new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new NoAnswer()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why a dependency failed, for a public answer: the error's code or class rather than its message,
 * which may name hosts and database users. The log has the whole error.
 */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof NoAnswer) return `unreachable: no answer within ${timeoutMs} ms`;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return `unreachable: ${code}`;
  if (error instanceof Error && error.name !== 'Error') return `unreachable: ${error.name}`;
  return 'unreachable (the server log says why)';
}

/**
 * Whether this instance should take new work: its database answers, its Redis too when there is
 * one, it is not shutting down, and it carries fewer calls than MAX_CALLS_PER_INSTANCE.
 */
export async function checkReadiness({ database, redis, draining, carriedCalls, maxCalls, log, timeoutMs = READINESS_TIMEOUT_MS }: ReadinessDependencies): Promise<Readiness> {
  const reachable = async (name: string, ping: () => Promise<unknown>) => {
    try {
      await within(timeoutMs, ping);
      return 'ok';
    } catch (error) {
      log.warn({ err: error }, `readiness: ${name} unreachable`);
      return failureOf(error, timeoutMs);
    }
  };
  const [databaseCheck, redisCheck] = await Promise.all([
    reachable('database', () => database.ping()),
    redis ? reachable('redis', () => redis.ping()) : undefined,
  ]);
  const carried = carriedCalls();
  const checks: Readiness['checks'] = {
    database: databaseCheck,
    ...(redisCheck ? { redis: redisCheck } : {}),
    draining: draining.active ? 'shutting down' : 'ok',
    calls: carried < maxCalls ? 'ok' : `at capacity: ${carried} of ${maxCalls} calls`,
  };
  return { ready: Object.values(checks).every((check) => check === 'ok'), checks };
}
