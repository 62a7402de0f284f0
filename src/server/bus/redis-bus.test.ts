import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { until } from '../../../tests/support/until';
import { createRedisClient } from '../redis/redis-client';
import type { Bus } from './bus';
import { createBus } from './create-bus';
import { RedisBus } from './redis-bus';

const redisUrl = process.env.TEST_REDIS_URL ?? '';
const log = { warn: () => {}, info: () => {} };

/** Long enough for a message that should not come to have come. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe.skipIf(!process.env.TEST_REDIS_URL)('RedisBus', () => {
  const buses: Bus[] = [];
  const admin = createRedisClient(redisUrl);
  const bus = () => {
    const created = createBus(redisUrl, log);
    buses.push(created);
    return created;
  };
  const channel = () => `test:${randomUUID()}`;
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((created) => created.close()));
  });
  afterAll(() => admin.quit());

  it('is what createBus gives for a Redis URL', () => {
    expect(bus()).toBeInstanceOf(RedisBus);
  });

  it('carries messages between two instances, both ways', async () => {
    const one = bus();
    const two = bus();
    const name = channel();
    const seenByOne: string[] = [];
    const seenByTwo: string[] = [];
    await one.subscribe(name, (payload) => seenByOne.push(payload.toString()));
    await two.subscribe(name, (payload) => seenByTwo.push(payload.toString()));
    await one.publish(name, 'from one');
    await two.publish(name, 'from two');
    await until(() => seenByOne.length === 2 && seenByTwo.length === 2);
    expect(seenByOne).toEqual(['from one', 'from two']);
    expect(seenByTwo).toEqual(['from one', 'from two']);
  });

  it('keeps a subscription made while its connection is still being set up', async () => {
    // Subscribing a few milliseconds after the bus is made used to lose the subscription now and then.
    const publisher = bus();
    await publisher.publish(channel(), 'connected');
    for (let delayMs = 0; delayMs < 20; delayMs += 1) {
      const subscriber = bus();
      const name = channel();
      await new Promise((resolve) => setTimeout(resolve, delayMs % 10));
      let received = false;
      await subscriber.subscribe(name, () => (received = true));
      // A lost subscription is gone from Redis once ioredis has replaced the connection.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await publisher.publish(name, 'ping');
      await until(() => received, 2_000);
    }
  });

  it('carries bytes unchanged, as media frames need', async () => {
    const one = bus();
    const two = bus();
    const name = channel();
    const frame = Buffer.from(Int16Array.from({ length: 320 }, (_, i) => (i * 997) % 65_536 - 32_768).buffer);
    const received: Buffer[] = [];
    await two.subscribe(name, (payload) => received.push(payload));
    await one.publish(name, frame);
    await until(() => received.length === 1);
    expect(received[0]!.equals(frame)).toBe(true);
  });

  it('delivers frames published in one turn, as a busy relay does, each once and in order', async () => {
    const one = bus();
    const two = bus();
    const name = channel();
    const received: number[] = [];
    await two.subscribe(name, (payload) => received.push(payload.readUInt32LE(0)));
    const frame = (sequence: number) => {
      const bytes = Buffer.alloc(640);
      bytes.writeUInt32LE(sequence, 0);
      return bytes;
    };
    await Promise.all(Array.from({ length: 500 }, (_, sequence) => one.publish(name, frame(sequence))));
    await until(() => received.length >= 500);
    await settle();
    expect(received).toEqual(Array.from({ length: 500 }, (_, sequence) => sequence));
  });

  it('writes what is published within a millisecond, over several turns of the event loop, to Redis at once and in order', async () => {
    const publisherConnection = createRedisClient(redisUrl);
    await publisherConnection.ping();
    const writes = vi.spyOn(publisherConnection, 'pipeline');
    const one = new RedisBus(publisherConnection, createRedisClient(redisUrl), log);
    buses.push(one);
    const two = bus();
    const name = channel();
    const received: string[] = [];
    await two.subscribe(name, (payload) => received.push(payload.toString()));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const published: Promise<void>[] = [];
    try {
      published.push(one.publish(name, 'first'));
      await nextTurn();
      published.push(one.publish(name, Buffer.from('second')));
      await nextTurn();
      published.push(one.publish(name, 'third'));
      expect(writes).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(writes).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
    await Promise.all(published);
    await until(() => received.length >= 3);
    expect(received).toEqual(['first', 'second', 'third']);
  });

  it('delivers a message published on one instance exactly once to the subscriber on another', async () => {
    const publisher = bus();
    const subscriber = bus();
    const name = channel();
    const received: string[] = [];
    const receivedByPublisher: string[] = [];
    // Two handlers of one instance share one Redis subscription; each still gets the message once.
    const alsoReceived: string[] = [];
    await subscriber.subscribe(name, (payload) => received.push(payload.toString()));
    await subscriber.subscribe(name, (payload) => alsoReceived.push(payload.toString()));
    await publisher.subscribe(channel(), (payload) => receivedByPublisher.push(payload.toString()));
    await publisher.publish(name, 'ring');
    await until(() => received.length > 0);
    await settle();
    expect(received).toEqual(['ring']);
    expect(alsoReceived).toEqual(['ring']);
    expect(receivedByPublisher).toEqual([]);
  });

  it('stops delivery after unsubscribe, and only for that handler', async () => {
    const publisher = bus();
    const subscriber = bus();
    const name = channel();
    const kept: string[] = [];
    const dropped: string[] = [];
    const unsubscribeKept = await subscriber.subscribe(name, (payload) => kept.push(payload.toString()));
    const unsubscribeDropped = await subscriber.subscribe(name, (payload) => dropped.push(payload.toString()));
    await unsubscribeDropped();
    await publisher.publish(name, 'one');
    await until(() => kept.length === 1);
    await unsubscribeKept();
    expect(await admin.pubsub('NUMSUB', `voxline:bus:${name}`)).toEqual([`voxline:bus:${name}`, 0]);
    await publisher.publish(name, 'two');
    await settle();
    expect(kept).toEqual(['one']);
    expect(dropped).toEqual([]);
  });

  it('subscribes again after its connection to Redis is lost', async () => {
    const subscriberConnection = createRedisClient(redisUrl);
    const connectionId = await subscriberConnection.client('ID');
    const subscriber = new RedisBus(createRedisClient(redisUrl), subscriberConnection, log);
    buses.push(subscriber);
    const publisher = bus();
    const name = channel();
    const received: string[] = [];
    await subscriber.subscribe(name, (payload) => received.push(payload.toString()));
    const reconnected = new Promise((resolve) => subscriberConnection.once('ready', resolve));
    await admin.client('KILL', 'ID', String(connectionId));
    await reconnected;
    await until(async () => ((await admin.pubsub('NUMSUB', `voxline:bus:${name}`)) as [string, number])[1] === 1);
    await publisher.publish(name, 'after the reconnection');
    await until(() => received.length === 1);
    expect(received).toEqual(['after the reconnection']);
  });
});
