import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { until } from '../../../tests/support/until';
import { createRedisClient } from '../redis/redis-client';
import { MemoryPresence, type Presence } from './presence';
import { RedisPresence } from './redis-presence';

const log = { warn: () => {} };
/** Short enough to watch an entry expire; the refresh comes three times within it, as in production. */
const timing = { ttlMs: 600, refreshMs: 200 };

describe('MemoryPresence', () => {
  it('lists a user while they have listening tabs', async () => {
    const presence = new MemoryPresence();
    await presence.setListening('ada', 2);
    await presence.setListening('bob', 1);
    expect(await presence.isListening('ada')).toBe(true);
    expect(await presence.listeningUsers()).toEqual(['ada', 'bob']);
    await presence.setListening('ada', 0);
    expect(await presence.isListening('ada')).toBe(false);
    expect(await presence.listeningUsers()).toEqual(['bob']);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('RedisPresence', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? '';
  const shared = createRedisClient(redisUrl);
  const opened: Presence[] = [];
  const instance = (redis = shared) => {
    const presence = new RedisPresence(redis, randomUUID(), log, timing);
    opened.push(presence);
    return presence;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((presence) => presence.close()));
  });
  afterAll(() => shared.quit());

  it('sees a user listening on any instance, but lists only this instance\'s users', async () => {
    const one = instance();
    const two = instance();
    const ada = randomUUID();
    const bob = randomUUID();
    await one.setListening(ada, 1);
    await two.setListening(bob, 2);
    expect(await two.isListening(ada)).toBe(true);
    expect(await one.isListening(bob)).toBe(true);
    expect(await one.listeningUsers()).toEqual([ada]);
    expect(await two.listeningUsers()).toEqual([bob]);
  });

  it('keeps a user listening while another instance still has a tab of theirs', async () => {
    const one = instance();
    const two = instance();
    const ada = randomUUID();
    await one.setListening(ada, 1);
    await two.setListening(ada, 1);
    await one.setListening(ada, 0);
    expect(await one.isListening(ada)).toBe(true);
    await two.setListening(ada, 0);
    expect(await one.isListening(ada)).toBe(false);
  });

  it('keeps a listener past its ttl while its instance renews it', async () => {
    const one = instance();
    const ada = randomUUID();
    await one.setListening(ada, 1);
    await new Promise((resolve) => setTimeout(resolve, timing.ttlMs * 2));
    expect(await instance().isListening(ada)).toBe(true);
  });

  it('forgets the listeners of an instance that stops renewing them (crashed) within the ttl', async () => {
    const crashing = createRedisClient(redisUrl);
    const crashed = instance(crashing);
    const ada = randomUUID();
    await crashed.setListening(ada, 1);
    const started = Date.now();
    // Its connection gone, the instance can neither renew nor withdraw its entries.
    crashing.disconnect();
    const other = instance();
    expect(await other.isListening(ada)).toBe(true);
    await until(async () => !(await other.isListening(ada)), 2_000);
    expect(Date.now() - started).toBeLessThan(timing.ttlMs + 200);
  });

  it('writes its listeners again as soon as Redis is back after losing them', async () => {
    const reconnecting = createRedisClient(redisUrl);
    // Renewing only once a minute: what brings the entry back is the reconnection.
    const one = new RedisPresence(reconnecting, randomUUID(), log, { ttlMs: 60_000, refreshMs: 60_000 });
    const other = instance();
    const ada = randomUUID();
    try {
      await one.setListening(ada, 1);
      // A Redis restarted without its data, as the machine's (no persistence) comes back.
      await shared.del(`voxline:listening:${ada}`);
      expect(await other.isListening(ada)).toBe(false);
      reconnecting.disconnect(true);
      await until(() => other.isListening(ada));
    } finally {
      await one.close();
      reconnecting.disconnect();
    }
  });

  it('withdraws its listeners at once when closed', async () => {
    const one = instance();
    const ada = randomUUID();
    await one.setListening(ada, 1);
    await one.close();
    expect(await instance().isListening(ada)).toBe(false);
  });
});
