import { burstyLoss, independentLoss, type LinkProfile, noLoss } from './impairment';

const clean: LinkProfile = {
  name: 'clean',
  oneWayDelayMs: 0,
  jitter: { ms: 0, distribution: 'uniform' },
  loss: noLoss,
  duplicateRate: 0,
  rateCap: null,
};

/**
 * The links of issue 18's bench, each applied to both directions: round trips are twice the
 * one-way delay, jitter is each direction's. Mobile and bad links jitter in a bell curve, as
 * queues on a shared radio link do, rather than evenly.
 */
export const profiles = {
  clean,
  wifi: { ...clean, name: 'wifi', oneWayDelayMs: 10, loss: independentLoss(0.005) },
  mobile: { ...clean, name: 'mobile', oneWayDelayMs: 50, jitter: { ms: 30, distribution: 'normal' }, loss: independentLoss(0.03) },
  bad: { ...clean, name: 'bad', oneWayDelayMs: 100, jitter: { ms: 50, distribution: 'normal' }, loss: burstyLoss(0.08, 3) },
  // A second of queue at the rate: a mobile operator's deep buffer, where a sender over the rate
  // first sees its delay grow, then its packets dropped.
  narrow: { ...clean, name: 'narrow', rateCap: { bitsPerSecond: 200_000, burstBytes: 3_000, queueBytes: 25_000 } },
} satisfies Record<string, LinkProfile>;
