import { describe, expect, it } from 'vitest';
import { ReconnectPolicy } from './reconnect-policy';

describe('ReconnectPolicy', () => {
  it('backs off 1, 2, 5, then 10 s after drops, from the start again once a socket opens', () => {
    const policy = new ReconnectPolicy();
    expect([1, 2, 3, 4, 5].map(() => policy.afterDrop())).toEqual([1_000, 2_000, 5_000, 10_000, 10_000]);
    policy.opened();
    expect(policy.afterDrop()).toBe(1_000);
  });

  it('moves within a second of a drain, and backs off while each server it reaches is draining too', () => {
    const policy = new ReconnectPolicy(() => 0.25);
    expect(policy.drained(true)).toBe(false);
    expect(policy.afterDrain()).toBe(250);
    expect([1, 2, 3, 4].map(() => (policy.drained(true), policy.afterDrain()))).toEqual([2_000, 5_000, 10_000, 10_000]);
    policy.listening();
    expect(policy.drained(true)).toBe(false);
    expect(policy.afterDrain()).toBe(250);
  });

  it('moves quickly from server to server in a rolling upgrade, listening on each', () => {
    const policy = new ReconnectPolicy(() => 0.5);
    for (const _server of [1, 2, 3]) {
      expect(policy.drained(true)).toBe(false);
      expect(policy.afterDrain()).toBe(500);
      policy.opened();
      policy.listening();
    }
  });

  it('never backs off a tab that does not listen: no server tells it whether it is draining', () => {
    const policy = new ReconnectPolicy(() => 0.5);
    expect([1, 2, 3].map(() => (policy.drained(false), policy.afterDrain()))).toEqual([500, 500, 500]);
  });
});
