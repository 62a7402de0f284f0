import { describe, expect, it } from 'vitest';
import { TokenBucketQueue } from './token-bucket-queue';

// 80 kbit/s is 10 bytes a millisecond: a 1,000-byte packet every 100 ms.
const RATE = 80_000;

describe('TokenBucketQueue', () => {
  it('lets traffic under the rate through at once', () => {
    const bucket = new TokenBucketQueue(RATE, 1_000, 5_000);
    for (let t = 0; t < 2_000; t += 20) expect(bucket.admit(t, 100)).toBe(t);
  });

  it('spaces a burst out at the rate once the bucket is empty, and drops what the queue cannot hold', () => {
    const bucket = new TokenBucketQueue(RATE, 1_000, 5_000);
    const departures = Array.from({ length: 8 }, () => bucket.admit(0, 1_000));
    // The first leaves on the bucket's tokens, five wait (5,000 bytes of queue), the rest are dropped.
    expect(departures).toEqual([0, 100, 200, 300, 400, 500, null, null]);
  });

  it('makes room in the queue as packets leave', () => {
    const bucket = new TokenBucketQueue(RATE, 1_000, 2_000);
    expect([bucket.admit(0, 1_000), bucket.admit(0, 1_000), bucket.admit(0, 1_000), bucket.admit(0, 1_000)]).toEqual([0, 100, 200, null]);
    expect(bucket.admit(100, 1_000)).toBe(300);
  });

  it('refills the bucket during a quiet spell, up to the burst', () => {
    const bucket = new TokenBucketQueue(RATE, 2_000, 10_000);
    expect([bucket.admit(0, 1_000), bucket.admit(0, 1_000), bucket.admit(0, 1_000)]).toEqual([0, 0, 100]);
    expect([bucket.admit(10_000, 1_000), bucket.admit(10_000, 1_000), bucket.admit(10_000, 1_000)]).toEqual([10_000, 10_000, 10_100]);
  });

  it('holds the average rate for packets larger than the burst', () => {
    const bucket = new TokenBucketQueue(RATE, 1_000, Number.POSITIVE_INFINITY);
    expect(bucket.admit(0, 3_000)).toBe(0);
    expect(bucket.admit(0, 1_000)).toBe(300);
  });

  it('keeps the rate over a long backlog', () => {
    const bucket = new TokenBucketQueue(RATE, 1_000, Number.POSITIVE_INFINITY);
    let last = 0;
    for (let i = 0; i < 1_000; i += 1) last = bucket.admit(0, 1_000)!;
    expect(last).toBeCloseTo(99_900, 6);
  });
});
