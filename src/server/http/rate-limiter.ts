import type { Redis } from 'ioredis';
import { AppError } from './app-error';

export interface RateLimitRule {
  /** Attempts allowed per window. */
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window attempt counters. Keys name what is limited (`sign-in:ip:1.2.3.4`,
 * `sign-in:email:ada@example.com`) so one limiter serves every route.
 */
export interface RateLimiter {
  /** Counts an attempt; throws a 429 AppError saying when to retry once the limit is passed. */
  hit(key: string, rule: RateLimitRule): Promise<void>;
}

function refuseWhenOver(count: number, rule: RateLimitRule, msLeft: number) {
  if (count <= rule.limit) return;
  const retryAfterSec = Math.max(1, Math.ceil(msLeft / 1000));
  throw new AppError(429, 'rate_limited', `Too many attempts. Try again in ${retryAfterSec} seconds.`, undefined, { cause: { retryAfterSec } });
}

/** Counters in this process: enough for one instance (no REDIS_URL). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, rule: RateLimitRule): Promise<void> {
    const now = this.now();
    this.sweep(now);
    const current = this.windows.get(key);
    const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + rule.windowMs };
    window.count += 1;
    this.windows.set(key, window);
    try {
      refuseWhenOver(window.count, rule, window.resetAt - now);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  private sweep(now: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

// One round trip, atomic: the first hit of a window starts its expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

/** Counters in Redis, shared by every instance behind the load balancer (REDIS_URL). */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'voxline:rate:',
  ) {}

  async hit(key: string, rule: RateLimitRule): Promise<void> {
    let count: number;
    let msLeft: number;
    try {
      [count, msLeft] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, rule.windowMs)) as [number, number];
    } catch (error) {
      throw AppError.unavailable('Voxline cannot reach its shared state right now. Please try again in a moment.', error);
    }
    refuseWhenOver(count, rule, msLeft);
  }
}
