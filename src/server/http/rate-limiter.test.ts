import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '../redis/redis-client';
import { AppError } from './app-error';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limiter';

const rule = { limit: 2, windowMs: 60_000 };

async function refusal(limiter: RateLimiter, key: string) {
  return limiter.hit(key, rule).then(
    () => null,
    (error: unknown) => error,
  );
}

describe('MemoryRateLimiter', () => {
  it('allows the limit, then refuses with when to retry, then allows again after the window', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    await limiter.hit('sign-in:email:a', rule);
    await limiter.hit('sign-in:email:a', rule);
    now += 15_000;
    const refused = await refusal(limiter, 'sign-in:email:a');
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Try again in 45 seconds.' });
    // Another key has its own count.
    expect(await refusal(limiter, 'sign-in:email:b')).toBeNull();
    now += 45_000;
    expect(await refusal(limiter, 'sign-in:email:a')).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('RedisRateLimiter', () => {
  const redis = createRedisClient(process.env.TEST_REDIS_URL ?? '');
  afterAll(() => redis.quit());

  it('shares one count between instances, and says when to retry', async () => {
    const key = `sign-in:email:${randomUUID()}`;
    const one = new RedisRateLimiter(redis);
    const other = new RedisRateLimiter(redis);
    await one.hit(key, rule);
    await other.hit(key, rule);
    const refused = await refusal(one, key);
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Try again in 60 seconds.' });
    expect(await redis.pttl(`voxline:rate:${key}`)).toBeGreaterThan(55_000);
  });

  it('starts a new window once the old one expires', async () => {
    const key = `reset:ip:${randomUUID()}`;
    const limiter = new RedisRateLimiter(redis);
    const short = { limit: 1, windowMs: 50 };
    await limiter.hit(key, short);
    await expect(limiter.hit(key, short)).rejects.toMatchObject({ statusCode: 429 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(limiter.hit(key, short)).resolves.toBeUndefined();
  });

  it('answers 503 while Redis cannot be reached, rather than letting attempts through', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    try {
      await expect(new RedisRateLimiter(unreachable).hit('sign-up:ip:10.0.0.1', rule)).rejects.toMatchObject({ statusCode: 503, code: 'unavailable' });
    } finally {
      unreachable.disconnect();
    }
  });
});
