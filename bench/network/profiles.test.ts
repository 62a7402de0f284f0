import { describe, expect, it } from 'vitest';
import { Impairment } from './impairment';
import { profiles } from './profiles';

/** The share of `count` packets a profile loses, and the mean length of its runs of losses. */
function measuredLoss(profile: (typeof profiles)[keyof typeof profiles], count: number) {
  const impairment = new Impairment(profile, 18, 'datagrams');
  let lost = 0;
  let bursts = 0;
  let previousLost = false;
  for (let i = 0; i < count; i += 1) {
    const isLost = impairment.plan(i * 20, 100).kind === 'lost';
    if (isLost) lost += 1;
    if (isLost && !previousLost) bursts += 1;
    previousLost = isLost;
  }
  return { share: lost / count, meanBurst: lost / bursts };
}

describe('profiles', () => {
  it('are named as the bench calls them', () => {
    for (const [key, profile] of Object.entries(profiles)) expect(profile.name).toBe(key);
  });

  it('leave the clean link alone', () => {
    expect(profiles.clean).toMatchObject({ oneWayDelayMs: 0, jitter: { ms: 0 }, duplicateRate: 0, rateCap: null });
    expect(measuredLoss(profiles.clean, 10_000).share).toBe(0);
  });

  it('give Wi-Fi a 20 ms round trip and 0.5 % loss', () => {
    expect(2 * profiles.wifi.oneWayDelayMs).toBe(20);
    expect(measuredLoss(profiles.wifi, 200_000).share).toBeCloseTo(0.005, 3);
  });

  it('give mobile a 100 ms round trip, ±30 ms jitter and 3 % loss', () => {
    expect(2 * profiles.mobile.oneWayDelayMs).toBe(100);
    expect(profiles.mobile.jitter.ms).toBe(30);
    expect(measuredLoss(profiles.mobile, 200_000).share).toBeCloseTo(0.03, 2);
  });

  it('give bad a 200 ms round trip, ±50 ms jitter and 8 % loss in bursts', () => {
    expect(2 * profiles.bad.oneWayDelayMs).toBe(200);
    expect(profiles.bad.jitter.ms).toBe(50);
    const { share, meanBurst } = measuredLoss(profiles.bad, 200_000);
    expect(share).toBeCloseTo(0.08, 2);
    expect(meanBurst).toBeGreaterThan(2.5);
  });

  it('cap narrow at 200 kbit/s each way and nothing else', () => {
    expect(profiles.narrow).toMatchObject({ oneWayDelayMs: 0, jitter: { ms: 0 }, rateCap: { bitsPerSecond: 200_000 } });
    expect(measuredLoss(profiles.narrow, 10_000).share).toBe(0);
  });
});
