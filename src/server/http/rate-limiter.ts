import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { AppError } from './app-error';

export interface RateLimitRule {
  /** Attempts (or, for a limit on failures, failed attempts) allowed per window. */
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters. Keys name what is limited (`reset:ip:1.2.3.4`, `sign-in:account:ada@example.com:ip:1.2.3.4`)
 * so one limiter serves every route. `hit` counts every attempt; `take`, `giveBack` and `msUntilAllowed`
 * let a route count only the attempts that fail (`beginLimitedAttempt`).
 */
export interface RateLimiter {
  /** Counts an attempt; throws a 429 AppError saying when to retry once the limit is passed. */
  hit(key: string, rule: RateLimitRule): Promise<void>;
  /** Counts an attempt unless `key` has used up its limit: answers 0 when counted, else the ms left in its window (counting nothing). */
  take(key: string, rule: RateLimitRule): Promise<number>;
  /** Takes back one attempt counted by `take` in the current window: one that did not fail. */
  giveBack(key: string): Promise<void>;
  /** The ms until `key` is under its limit again, 0 when it is now. Counts nothing. */
  msUntilAllowed(key: string, rule: RateLimitRule): Promise<number>;
  /** Forgets `key`'s count. */
  clear(key: string): Promise<void>;
}

/**
 * The address a limit counts against: an IPv4 address (also when written IPv4-mapped), or the /64
 * network of an IPv6 one. A subscriber is usually given a whole /64, and would get a fresh count with
 * each of its addresses.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : []);
  const before = groups(head);
  const after = groups(tail);
  const all = [...before, ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** A wait as a person reads it ("45 seconds", "1 minute", "14 minutes"), rounded up so that it is never too short. */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The 429 of a limit reached: what happened, then when to try again; Retry-After says the same in seconds. */
export function rateLimited(reason: string, msLeft: number): AppError {
  const retryAfterSec = Math.max(1, Math.ceil(msLeft / 1000));
  return new AppError(429, 'rate_limited', `${reason} Try again in ${waitInWords(msLeft)}.`, undefined, { cause: { retryAfterSec } });
}

export interface FailureLimit {
  key: string;
  rule: RateLimitRule;
  /** Why this limit refuses, in the words of the 429 ("Too many failed sign-in attempts from this device."). */
  reason: string;
}

export interface LimitedAttempt {
  /** The attempt did not fail (it succeeded, or stopped for another reason than a wrong guess): it stops counting. */
  release(): Promise<void>;
  /** The attempt failed and stays counted; throws the 429 of a limit it used up, to answer instead of the failure. */
  failed(): Promise<void>;
}

/**
 * Starts an attempt that counts against every limit given only if it fails. It takes its place in each
 * count before the work and gives it back when the attempt did not fail: a check made before the work and
 * a count made after it would let a burst of parallel guesses all pass before the first had failed.
 * Throws the 429 of a limit already used up.
 */
export async function beginLimitedAttempt(limiter: RateLimiter, limits: FailureLimit[]): Promise<LimitedAttempt> {
  const taken: FailureLimit[] = [];
  const release = async () => {
    await Promise.all(taken.map(({ key }) => limiter.giveBack(key)));
  };
  for (const limit of limits) {
    const msLeft = await limiter.take(limit.key, limit.rule);
    if (msLeft > 0) {
      await release();
      throw rateLimited(limit.reason, msLeft);
    }
    taken.push(limit);
  }
  return {
    release,
    async failed() {
      const waits = await Promise.all(limits.map(async (limit) => ({ limit, msLeft: await limiter.msUntilAllowed(limit.key, limit.rule) })));
      const longest = waits.reduce((a, b) => (b.msLeft > a.msLeft ? b : a), { limit: limits[0]!, msLeft: 0 });
      if (longest.msLeft > 0) throw rateLimited(longest.limit.reason, longest.msLeft);
    },
  };
}

function refuseWhenOver(count: number, rule: RateLimitRule, msLeft: number) {
  if (count > rule.limit) throw rateLimited('Too many attempts.', msLeft);
}

interface Window {
  count: number;
  resetAt: number;
}

/** Counters in this process: enough for one instance (no REDIS_URL). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, rule: RateLimitRule): Promise<void> {
    const now = this.now();
    const window = this.windowFor(key, rule, now);
    window.count += 1;
    try {
      refuseWhenOver(window.count, rule, window.resetAt - now);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  take(key: string, rule: RateLimitRule): Promise<number> {
    const now = this.now();
    const window = this.windowFor(key, rule, now);
    if (window.count >= rule.limit) return Promise.resolve(window.resetAt - now);
    window.count += 1;
    return Promise.resolve(0);
  }

  giveBack(key: string): Promise<void> {
    const window = this.current(key, this.now());
    if (window && window.count > 0) window.count -= 1;
    return Promise.resolve();
  }

  msUntilAllowed(key: string, rule: RateLimitRule): Promise<number> {
    const now = this.now();
    const window = this.current(key, now);
    return Promise.resolve(window && window.count >= rule.limit ? window.resetAt - now : 0);
  }

  clear(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
  }

  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? window : undefined;
  }

  /** The key's window in force, a new one when it had none. */
  private windowFor(key: string, rule: RateLimitRule, now: number): Window {
    this.sweep(now);
    const window = this.current(key, now) ?? { count: 0, resetAt: now + rule.windowMs };
    this.windows.set(key, window);
    return window;
  }

  private sweep(now: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

// Each script is one round trip, atomic: the first count of a window starts its expiry, and a take
// refused at the limit counts nothing.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

const TAKE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[2]) then return math.max(redis.call('PTTL', KEYS[1]), 1) end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 0`;

// DECR keeps the key's expiry; an expired window has nothing to give back.
const GIVE_BACK_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

const MS_UNTIL_ALLOWED_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then return 0 end
return math.max(redis.call('PTTL', KEYS[1]), 1)`;

/** Counters in Redis, shared by every instance behind the load balancer (REDIS_URL). */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'voxline:rate:',
  ) {}

  async hit(key: string, rule: RateLimitRule): Promise<void> {
    const [count, msLeft] = (await this.run(HIT_SCRIPT, key, rule.windowMs)) as [number, number];
    refuseWhenOver(count, rule, msLeft);
  }

  async take(key: string, rule: RateLimitRule): Promise<number> {
    return (await this.run(TAKE_SCRIPT, key, rule.windowMs, rule.limit)) as number;
  }

  async giveBack(key: string): Promise<void> {
    await this.run(GIVE_BACK_SCRIPT, key);
  }

  async msUntilAllowed(key: string, rule: RateLimitRule): Promise<number> {
    return (await this.run(MS_UNTIL_ALLOWED_SCRIPT, key, rule.limit)) as number;
  }

  async clear(key: string): Promise<void> {
    try {
      await this.redis.del(this.prefix + key);
    } catch (error) {
      throw unreachable(error);
    }
  }

  private async run(script: string, key: string, ...args: number[]): Promise<unknown> {
    try {
      return await this.redis.eval(script, 1, this.prefix + key, ...args);
    } catch (error) {
      throw unreachable(error);
    }
  }
}

// Without the shared counts, letting attempts through would lift every limit: refuse instead.
function unreachable(error: unknown) {
  return AppError.unavailable('Voxline cannot reach its shared state right now. Please try again in a moment.', error);
}
