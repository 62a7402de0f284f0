import { describe, expect, it } from 'vitest';
import { LocalBus } from './local-bus';

describe('LocalBus', () => {
  it('delivers a message to every handler of its channel once, and to no other channel', async () => {
    const bus = new LocalBus();
    const first: string[] = [];
    const second: string[] = [];
    const other: string[] = [];
    await bus.subscribe('user:a', (payload) => first.push(payload.toString()));
    await bus.subscribe('user:a', (payload) => second.push(payload.toString()));
    await bus.subscribe('user:b', (payload) => other.push(payload.toString()));
    await bus.publish('user:a', 'ring');
    expect(first).toEqual(['ring']);
    expect(second).toEqual(['ring']);
    expect(other).toEqual([]);
  });

  it('delivers within publish, so that messages keep the order they were sent in', async () => {
    const bus = new LocalBus();
    const received: string[] = [];
    await bus.subscribe('user:a', (payload) => received.push(payload.toString()));
    void bus.publish('user:a', 'one');
    void bus.publish('user:a', 'two');
    expect(received).toEqual(['one', 'two']);
  });

  it('stops delivering to a handler once unsubscribed, leaving the others', async () => {
    const bus = new LocalBus();
    const kept: string[] = [];
    const dropped: string[] = [];
    await bus.subscribe('user:a', (payload) => kept.push(payload.toString()));
    const unsubscribe = await bus.subscribe('user:a', (payload) => dropped.push(payload.toString()));
    await bus.publish('user:a', 'before');
    await unsubscribe();
    await bus.publish('user:a', 'after');
    expect(kept).toEqual(['before', 'after']);
    expect(dropped).toEqual(['before']);
  });

  it('lets a handler unsubscribe while a message is being delivered', async () => {
    const bus = new LocalBus();
    const received: string[] = [];
    const unsubscribe = await bus.subscribe('user:a', (payload) => {
      received.push(payload.toString());
      void unsubscribe();
    });
    await bus.publish('user:a', 'one');
    await bus.publish('user:a', 'two');
    expect(received).toEqual(['one']);
  });

  it('delivers nothing once closed', async () => {
    const bus = new LocalBus();
    const received: string[] = [];
    await bus.subscribe('user:a', (payload) => received.push(payload.toString()));
    await bus.close();
    await bus.publish('user:a', 'late');
    expect(received).toEqual([]);
  });
});
