import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '../../../redis/redis-client';
import { isRedisUnavailable } from '../../../redis/redis-errors';
import { MemoryWebhookIdStore, RedisWebhookIdStore } from './webhook-ids';

describe('MemoryWebhookIdStore', () => {
  it('records an id once, and forgets it when its time is up', async () => {
    let now = 1_000_000;
    const store = new MemoryWebhookIdStore(() => now);
    expect(await store.claim('a', 60)).toBe(true);
    expect(await store.claim('a', 60)).toBe(false);
    expect(await store.claim('b', 60)).toBe(true);
    now += 61_000;
    expect(await store.claim('a', 60)).toBe(true);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('RedisWebhookIdStore', () => {
  const redis = createRedisClient(process.env.TEST_REDIS_URL ?? '');
  afterAll(() => redis.quit());

  it('records an id for every instance sharing the Redis, with SET NX EX', async () => {
    const id = randomUUID();
    const prefix = `voxline-test:${randomUUID()}:`;
    const one = new RedisWebhookIdStore(redis, prefix);
    const other = new RedisWebhookIdStore(redis, prefix);
    expect(await one.claim(id, 360)).toBe(true);
    expect(await other.claim(id, 360)).toBe(false);
    expect(await one.claim(id, 360)).toBe(false);
    const ttl = await redis.ttl(`${prefix}${id}`);
    expect(ttl).toBeGreaterThan(350);
    expect(ttl).toBeLessThanOrEqual(360);
  });

  it('lets exactly one of many simultaneous claims of one id through', async () => {
    const store = new RedisWebhookIdStore(redis, `voxline-test:${randomUUID()}:`);
    const answers = await Promise.all(Array.from({ length: 20 }, () => store.claim('same', 60)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('forgets an id once its time is up', async () => {
    const prefix = `voxline-test:${randomUUID()}:`;
    const store = new RedisWebhookIdStore(redis, prefix);
    expect(await store.claim('short', 1)).toBe(true);
    await redis.pexpire(`${prefix}short`, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.claim('short', 1)).toBe(true);
  });
});

describe('RedisWebhookIdStore without Redis', () => {
  it('fails as Redis being away, rather than answering that an id is new', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    try {
      const failure = await new RedisWebhookIdStore(unreachable).claim(randomUUID(), 60).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isRedisUnavailable(failure)).toBe(true);
    } finally {
      unreachable.disconnect();
    }
  });
});
