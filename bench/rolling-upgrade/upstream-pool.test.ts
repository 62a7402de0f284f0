import { describe, expect, it } from 'vitest';
import { UpstreamPool } from './upstream-pool';

const picks = (pool: UpstreamPool, count: number) => Array.from({ length: count }, () => pool.pick()?.name ?? null);

describe('UpstreamPool', () => {
  it('sends nothing to an upstream until its readiness says so', () => {
    const pool = new UpstreamPool();
    pool.add('a', 3001);
    expect(pool.pick()).toBeNull();
    expect(pool.setReady('a', true)).toBe(true);
    expect(pool.pick()).toMatchObject({ name: 'a', port: 3001 });
  });

  it('takes the ready upstreams in turn and skips the others', () => {
    const pool = new UpstreamPool();
    for (const [name, port] of [['a', 3001], ['b', 3002], ['c', 3003]] as const) pool.add(name, port);
    pool.setReady('a', true);
    pool.setReady('c', true);
    expect(picks(pool, 4)).toEqual(['a', 'c', 'a', 'c']);
  });

  it('stops sending to an upstream that turns not ready (draining), and to none when none is ready', () => {
    const pool = new UpstreamPool();
    pool.add('a', 3001);
    pool.add('b', 3002);
    pool.setReady('a', true);
    pool.setReady('b', true);
    expect(pool.setReady('a', false)).toBe(true);
    expect(picks(pool, 3)).toEqual(['b', 'b', 'b']);
    pool.setReady('b', false);
    expect(pool.pick()).toBeNull();
  });

  it('says whether a poll changed anything, and forgets a removed upstream', () => {
    const pool = new UpstreamPool();
    pool.add('a', 3001);
    expect(pool.setReady('a', false)).toBe(false);
    pool.setReady('a', true);
    expect(pool.setReady('a', true)).toBe(false);
    pool.remove('a');
    expect(pool.setReady('a', true)).toBe(false);
    expect(pool.pick()).toBeNull();
    expect(pool.all).toEqual([]);
  });

  it('refuses a second upstream of the same name', () => {
    const pool = new UpstreamPool();
    pool.add('a', 3001);
    expect(() => pool.add('a', 3002)).toThrow('the balancer already has an upstream named a');
  });
});
