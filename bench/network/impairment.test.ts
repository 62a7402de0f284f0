import { describe, expect, it } from 'vitest';
import { burstyLoss, Impairment, independentLoss, type LinkProfile, type PacketFate } from './impairment';
import { profiles } from './profiles';

function link(overrides: Partial<LinkProfile>): LinkProfile {
  return { ...profiles.clean, name: 'test', ...overrides };
}

/** Fates of `count` packets of `bytes` sent every `spacingMs`. */
function send(impairment: Impairment, count: number, spacingMs = 20, bytes = 100): PacketFate[] {
  return Array.from({ length: count }, (_, i) => impairment.plan(i * spacingMs, bytes));
}

function deliveries(fates: PacketFate[]): number[][] {
  return fates.map((fate) => (fate.kind === 'delivered' ? fate.atMs : []));
}

function count(fates: PacketFate[], kind: PacketFate['kind']) {
  return fates.filter((fate) => fate.kind === kind).length;
}

/** Packets delivered after one sent later (RFC 4737's reordered packets), first copies only. */
function reordered(fates: PacketFate[]) {
  const firstCopies = deliveries(fates).flatMap((times) => times.slice(0, 1));
  let earliestLater = Number.POSITIVE_INFINITY;
  let late = 0;
  for (let i = firstCopies.length - 1; i >= 0; i -= 1) {
    if (firstCopies[i]! > earliestLater) late += 1;
    earliestLater = Math.min(earliestLater, firstCopies[i]!);
  }
  return late;
}

describe('Impairment on datagrams', () => {
  it('passes everything at once on a clean link', () => {
    expect(deliveries(send(new Impairment(profiles.clean, 1, 'datagrams'), 100))).toEqual(Array.from({ length: 100 }, (_, i) => [i * 20]));
  });

  it('loses a seeded share of packets, the same ones for the same seed', () => {
    const lossy = link({ loss: independentLoss(0.05) });
    const fates = send(new Impairment(lossy, 5, 'datagrams'), 2_000);
    expect(count(fates, 'lost')).toBeGreaterThan(70);
    expect(count(fates, 'lost')).toBeLessThan(130);
    expect(send(new Impairment(lossy, 5, 'datagrams'), 2_000)).toEqual(fates);
    expect(send(new Impairment(lossy, 6, 'datagrams'), 2_000)).not.toEqual(fates);
  });

  it('loses in bursts with the Gilbert–Elliott model, independently without it', () => {
    const meanRun = (profile: LinkProfile) => {
      const lost = send(new Impairment(profile, 9, 'datagrams'), 100_000).map((fate) => fate.kind === 'lost');
      const runs = lost.filter((isLost, i) => isLost && !lost[i - 1]).length;
      return lost.filter(Boolean).length / runs;
    };
    expect(meanRun(link({ loss: burstyLoss(0.1, 4) }))).toBeCloseTo(4, 0);
    expect(meanRun(link({ loss: independentLoss(0.1) }))).toBeCloseTo(1 / 0.9, 1);
  });

  it('delays by the one-way delay, spread evenly by uniform jitter', () => {
    const fates = send(new Impairment(link({ oneWayDelayMs: 50, jitter: { ms: 30, distribution: 'uniform' } }), 2, 'datagrams'), 10_000);
    const delays = deliveries(fates).map(([at], i) => at! - i * 20);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(20);
    expect(Math.min(...delays)).toBeLessThan(21);
    expect(Math.max(...delays)).toBeLessThanOrEqual(80);
    expect(Math.max(...delays)).toBeGreaterThan(79);
    expect(delays.reduce((a, b) => a + b) / delays.length).toBeCloseTo(50, 0);
  });

  it('clips normal jitter at its bound, with σ half of it', () => {
    const fates = send(new Impairment(link({ oneWayDelayMs: 100, jitter: { ms: 40, distribution: 'normal' } }), 3, 'datagrams'), 20_000);
    const spreads = deliveries(fates).map(([at], i) => at! - i * 20 - 100);
    expect(Math.min(...spreads)).toBeGreaterThanOrEqual(-40);
    expect(Math.max(...spreads)).toBeLessThanOrEqual(40);
    const sigma = Math.sqrt(spreads.reduce((sum, spread) => sum + spread * spread, 0) / spreads.length);
    expect(sigma).toBeGreaterThan(17);
    expect(sigma).toBeLessThan(20);
  });

  it('never delivers before a packet is sent, however wide the jitter', () => {
    const fates = send(new Impairment(link({ oneWayDelayMs: 5, jitter: { ms: 50, distribution: 'uniform' } }), 4, 'datagrams'), 1_000);
    deliveries(fates).forEach(([at], i) => expect(at).toBeGreaterThanOrEqual(i * 20));
  });

  it('reorders packets when the jitter exceeds their spacing, and only then', () => {
    const jittery = (ms: number) => link({ oneWayDelayMs: 50, jitter: { ms, distribution: 'uniform' } });
    expect(reordered(send(new Impairment(jittery(30), 5, 'datagrams'), 1_000))).toBeGreaterThan(100);
    expect(reordered(send(new Impairment(jittery(9), 5, 'datagrams'), 1_000))).toBe(0);
  });

  it('duplicates a seeded share of packets, each copy with a delay of its own', () => {
    const fates = send(new Impairment(link({ duplicateRate: 0.1, oneWayDelayMs: 50, jitter: { ms: 30, distribution: 'uniform' } }), 6, 'datagrams'), 5_000);
    const copies = deliveries(fates).filter((times) => times.length === 2);
    expect(copies.length).toBeGreaterThan(400);
    expect(copies.length).toBeLessThan(600);
    expect(copies.filter(([first, second]) => first !== second).length).toBe(copies.length);
  });

  it('spaces packets at the rate cap and drops those its queue cannot hold', () => {
    // 80 kbit/s: a 1,000-byte packet every 100 ms; one in the bucket, two in the queue.
    const capped = link({ oneWayDelayMs: 10, rateCap: { bitsPerSecond: 80_000, burstBytes: 1_000, queueBytes: 2_000 } });
    const fates = send(new Impairment(capped, 7, 'datagrams'), 5, 0, 1_000);
    expect(fates).toEqual([
      { kind: 'delivered', atMs: [10] },
      { kind: 'delivered', atMs: [110] },
      { kind: 'delivered', atMs: [210] },
      { kind: 'queue-dropped' },
      { kind: 'queue-dropped' },
    ]);
  });

  it('switches profile for the packets that follow', () => {
    const impairment = new Impairment(link({ loss: independentLoss(1) }), 8, 'datagrams');
    expect(count(send(impairment, 10), 'lost')).toBe(10);
    impairment.use(link({ oneWayDelayMs: 30 }));
    expect(impairment.plan(1_000, 100)).toEqual({ kind: 'delivered', atMs: [1_030] });
  });
});

describe('Impairment on a stream', () => {
  it('delays with jitter but keeps the order', () => {
    const fates = send(new Impairment(link({ oneWayDelayMs: 50, jitter: { ms: 30, distribution: 'uniform' } }), 9, 'stream'), 1_000);
    const times = deliveries(fates).map(([at]) => at!);
    times.forEach((at, i) => expect(at).toBeGreaterThanOrEqual(Math.max(i * 20 + 20, times[i - 1] ?? 0)));
    expect(new Set(times.map((at, i) => at - i * 20)).size).toBeGreaterThan(500);
  });

  it('neither loses nor duplicates: a lost segment arrives a retransmission timeout late and holds back the next', () => {
    const impairment = new Impairment(link({ oneWayDelayMs: 20, loss: independentLoss(1), duplicateRate: 1 }), 10, 'stream');
    expect(impairment.plan(0, 100)).toEqual({ kind: 'delivered', atMs: [220] });
    impairment.use(link({ oneWayDelayMs: 20 }));
    expect(impairment.plan(20, 100)).toEqual({ kind: 'delivered', atMs: [220] });
    expect(impairment.plan(300, 100)).toEqual({ kind: 'delivered', atMs: [320] });
  });

  it('queues without a limit at the rate cap', () => {
    const capped = link({ rateCap: { bitsPerSecond: 80_000, burstBytes: 1_000, queueBytes: 1_000 } });
    const fates = send(new Impairment(capped, 11, 'stream'), 20, 0, 1_000);
    expect(deliveries(fates).map(([at]) => at)).toEqual(Array.from({ length: 20 }, (_, i) => i * 100));
  });
});
