import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows the limit, then refuses with when to retry, then allows again after the window', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(() => now);
    const rule = { limit: 2, windowMs: 60_000 };
    limiter.hit('sign-in:email:a', rule);
    limiter.hit('sign-in:email:a', rule);
    now += 15_000;
    let refusal: unknown;
    try {
      limiter.hit('sign-in:email:a', rule);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Try again in 45 seconds.' });
    // Another key has its own count.
    expect(() => limiter.hit('sign-in:email:b', rule)).not.toThrow();
    now += 45_000;
    expect(() => limiter.hit('sign-in:email:a', rule)).not.toThrow();
  });
});
