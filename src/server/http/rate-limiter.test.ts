import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '../redis/redis-client';
import { AppError } from './app-error';
import { beginLimitedAttempt, clientNetwork, MemoryRateLimiter, RedisRateLimiter, waitInWords, type RateLimiter } from './rate-limiter';

const rule = { limit: 2, windowMs: 60_000 };

async function refusal(limiter: RateLimiter, key: string) {
  return limiter.hit(key, rule).then(
    () => null,
    (error: unknown) => error,
  );
}

async function refusalToBegin(limiter: RateLimiter, key: string, limit = rule) {
  return beginLimitedAttempt(limiter, [{ key, rule: limit, reason: 'Too many wrong guesses.' }]).then(
    () => null,
    (error: unknown) => error,
  );
}

describe('waitInWords', () => {
  it.each([
    [1, '1 second'],
    [1_500, '2 seconds'],
    [59_000, '59 seconds'],
    [59_001, '1 minute'],
    [60_000, '1 minute'],
    [60_001, '2 minutes'],
    [14 * 60_000, '14 minutes'],
  ])('says %d ms as "%s", rounding up', (ms, words) => {
    expect(waitInWords(ms)).toBe(words);
  });
});

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:85a3:1:aaaa:bbbb:cccc:dddd', '2001:db8:85a3:1::/64'],
    ['2001:0db8:85a3:0001::1', '2001:db8:85a3:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('counts %s as %s', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });
});

describe('MemoryRateLimiter', () => {
  it('allows the limit, then refuses with when to retry, then allows again after the window', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    await limiter.hit('sign-in:email:a', rule);
    await limiter.hit('sign-in:email:a', rule);
    now += 15_000;
    const refused = await refusal(limiter, 'sign-in:email:a');
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Try again in 45 seconds.', cause: { retryAfterSec: 45 } });
    // Another key has its own count.
    expect(await refusal(limiter, 'sign-in:email:b')).toBeNull();
    now += 45_000;
    expect(await refusal(limiter, 'sign-in:email:a')).toBeNull();
  });

  it('counts only the attempts that fail, and says how long to wait in minutes', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    const key = 'sign-in:account:a:ip:1';
    const fifteenMinutes = { limit: 2, windowMs: 15 * 60_000 };
    const limits = [{ key, rule: fifteenMinutes, reason: 'Too many failed sign-in attempts from this device.' }];

    for (let i = 0; i < 5; i += 1) await (await beginLimitedAttempt(limiter, limits)).release();
    expect(await limiter.msUntilAllowed(key, fifteenMinutes)).toBe(0);

    await (await beginLimitedAttempt(limiter, limits)).failed();
    now += 60_000;
    const second = await beginLimitedAttempt(limiter, limits);
    // The failure that uses up the limit is answered with the refusal itself.
    await expect(second.failed()).rejects.toMatchObject({
      statusCode: 429,
      message: 'Too many failed sign-in attempts from this device. Try again in 14 minutes.',
      cause: { retryAfterSec: 840 },
    });
    expect(await limiter.msUntilAllowed(key, fifteenMinutes)).toBe(14 * 60_000);
    await expect(beginLimitedAttempt(limiter, limits)).rejects.toMatchObject({ statusCode: 429 });
    now += 14 * 60_000;
    expect(await limiter.msUntilAllowed(key, fifteenMinutes)).toBe(0);
    await expect(beginLimitedAttempt(limiter, limits)).resolves.toBeDefined();
  });

  it('holds a place for an attempt in progress, so parallel attempts cannot pass the limit together', async () => {
    const limiter = new MemoryRateLimiter();
    const started = await Promise.all(Array.from({ length: 10 }, () => refusalToBegin(limiter, 'two-factor:user:u1')));
    expect(started.filter((refused) => refused === null)).toHaveLength(rule.limit);
  });

  it('gives back what an attempt refused by a later limit took from an earlier one', async () => {
    const limiter = new MemoryRateLimiter();
    const full = { limit: 1, windowMs: 60_000 };
    await (await beginLimitedAttempt(limiter, [{ key: 'ip', rule: full, reason: 'Busy.' }])).failed().catch(() => {});
    const both = [
      { key: 'account-here', rule, reason: 'Too many for this account.' },
      { key: 'ip', rule: full, reason: 'Too many from this device.' },
    ];
    await expect(beginLimitedAttempt(limiter, both)).rejects.toMatchObject({ message: 'Too many from this device. Try again in 1 minute.' });
    expect(await limiter.take('account-here', rule)).toBe(0);
    expect(await limiter.take('account-here', rule)).toBe(0);
    expect(await limiter.take('account-here', rule)).toBeGreaterThan(0);
  });

  it('forgets a cleared key', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 2; i += 1) await limiter.take('k', rule);
    expect(await limiter.msUntilAllowed('k', rule)).toBeGreaterThan(0);
    await limiter.clear('k');
    expect(await limiter.msUntilAllowed('k', rule)).toBe(0);
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
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Try again in 1 minute.', cause: { retryAfterSec: 60 } });
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

  it('counts only failures, shared between instances, and refuses without counting at the limit', async () => {
    const key = `sign-in:account:${randomUUID()}:ip:10.0.0.1`;
    const one = new RedisRateLimiter(redis);
    const other = new RedisRateLimiter(redis);
    const limits = (limiter: RateLimiter) => beginLimitedAttempt(limiter, [{ key, rule, reason: 'Too many failed sign-in attempts from this device.' }]);

    await (await limits(one)).release();
    await (await limits(other)).release();
    expect(await redis.get(`voxline:rate:${key}`)).toBe('0');

    await (await limits(one)).failed();
    await expect((await limits(other)).failed()).rejects.toMatchObject({
      statusCode: 429,
      message: 'Too many failed sign-in attempts from this device. Try again in 1 minute.',
    });
    await expect(limits(one)).rejects.toMatchObject({ statusCode: 429 });
    expect(await redis.get(`voxline:rate:${key}`)).toBe('2');
    expect(await one.msUntilAllowed(key, rule)).toBeGreaterThan(55_000);
    expect(await redis.pttl(`voxline:rate:${key}`)).toBeGreaterThan(55_000);

    await other.clear(key);
    expect(await one.msUntilAllowed(key, rule)).toBe(0);
  });

  it('holds a place for an attempt in progress, so parallel attempts on two instances cannot pass the limit together', async () => {
    const key = `two-factor:user:${randomUUID()}`;
    const limiters = [new RedisRateLimiter(redis), new RedisRateLimiter(redis)];
    const started = await Promise.all(Array.from({ length: 10 }, (_, i) => refusalToBegin(limiters[i % 2]!, key)));
    expect(started.filter((refused) => refused === null)).toHaveLength(rule.limit);
  });

  it('gives nothing back to a window that has expired', async () => {
    const key = `two-factor:ip:${randomUUID()}`;
    const limiter = new RedisRateLimiter(redis);
    await limiter.take(key, { limit: 1, windowMs: 30 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await limiter.giveBack(key);
    expect(await redis.exists(`voxline:rate:${key}`)).toBe(0);
  });

  it('answers 503 while Redis cannot be reached, rather than letting attempts through', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    try {
      const limiter = new RedisRateLimiter(unreachable);
      await expect(limiter.hit('sign-up:ip:10.0.0.1', rule)).rejects.toMatchObject({ statusCode: 503, code: 'unavailable' });
      await expect(refusalToBegin(limiter, 'sign-in:ip:10.0.0.1')).resolves.toMatchObject({ statusCode: 503, code: 'unavailable' });
    } finally {
      unreachable.disconnect();
    }
  });
});
