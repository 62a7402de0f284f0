import { AppError } from './app-error';

export interface RateLimitRule {
  /** Attempts allowed per window. */
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window attempt counters kept in this process. Keys name what is limited
 * (`sign-in:ip:1.2.3.4`, `sign-in:email:ada@example.com`) so one limiter serves every route.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts an attempt; throws a 429 AppError saying when to retry once the limit is passed. */
  hit(key: string, rule: RateLimitRule) {
    const now = this.now();
    this.sweep(now);
    const current = this.windows.get(key);
    const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + rule.windowMs };
    window.count += 1;
    this.windows.set(key, window);
    if (window.count > rule.limit) {
      const retryAfterSec = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      throw new AppError(429, 'rate_limited', `Too many attempts. Try again in ${retryAfterSec} seconds.`, undefined, { cause: { retryAfterSec } });
    }
  }

  private sweep(now: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
