import { TokenBucketQueue } from './token-bucket-queue';
import { type Random, seededRandom } from './seeded-random';

/**
 * Gilbert–Elliott loss: the link is in a good or a bad state, loses each packet with the chance
 * of its state, and moves between the states with the given chance after each packet. Losses
 * then come in bursts whose mean length is 1 / badToGood packets.
 */
export interface LossModel {
  goodToBad: number;
  badToGood: number;
  lossInGood: number;
  lossInBad: number;
}

export const noLoss: LossModel = { goodToBad: 0, badToGood: 1, lossInGood: 0, lossInBad: 0 };

/** Each packet lost with the same chance, whatever happened to the one before. */
export function independentLoss(rate: number): LossModel {
  return { goodToBad: 0, badToGood: 1, lossInGood: rate, lossInBad: 0 };
}

/**
 * Losses of `rate` on average, in bursts of `meanBurstPackets` on average: the bad state loses
 * everything, the good state nothing (Gilbert's model), and the link is bad a `rate` share of the time.
 */
export function burstyLoss(rate: number, meanBurstPackets: number): LossModel {
  const badToGood = 1 / meanBurstPackets;
  return { goodToBad: (rate * badToGood) / (1 - rate), badToGood, lossInGood: 0, lossInBad: 1 };
}

/** What one direction of a link does to what crosses it. A profile applies it to both directions. */
export interface LinkProfile {
  name: string;
  /** Half the round trip. */
  oneWayDelayMs: number;
  /**
   * Each packet's delay varies by up to ± `ms` around the one-way delay: evenly spread, or
   * normally with σ = ms / 2, clipped to ± ms. A packet delayed more than the next one's
   * spacing is overtaken: that is how jitter reorders.
   */
  jitter: { ms: number; distribution: 'uniform' | 'normal' };
  loss: LossModel;
  /** The chance that a packet arrives twice, the copy after a delay of its own. */
  duplicateRate: number;
  /** The bottleneck; null for none. */
  rateCap: { bitsPerSecond: number; burstBytes: number; queueBytes: number } | null;
}

/**
 * What happens to a packet: lost at random, dropped because the bottleneck's queue is full, or
 * delivered at the given times (two when duplicated; `performance.now()` milliseconds).
 */
export type PacketFate = { kind: 'lost' } | { kind: 'queue-dropped' } | { kind: 'delivered'; atMs: number[] };

/**
 * Linux's floor on TCP's retransmission timeout (RFC 6298 says 1 s; Linux uses 200 ms).
 */
const MIN_RETRANSMIT_MS = 200;

/**
 * One direction of an impaired link, deterministic given its seed and the packets it sees.
 *
 * `datagrams` is what UDP suffers: packets lost, duplicated, reordered by jitter, dropped by a
 * full queue. `stream` is what TCP's byte stream shows its reader: nothing is lost or out of
 * order, so a lost segment instead arrives one retransmission timeout late, holding back
 * everything behind it, jitter delays without reordering, and the queue has no limit (the
 * proxy stops reading its sender instead, as TCP's window would).
 */
export class Impairment {
  private readonly random: Random;
  private profile!: LinkProfile;
  private bottleneck: TokenBucketQueue | null = null;
  private inBadState = false;
  private lastDeliveryMs = Number.NEGATIVE_INFINITY;

  constructor(
    profile: LinkProfile,
    seed: number,
    private readonly kind: 'datagrams' | 'stream',
  ) {
    this.random = seededRandom(seed);
    this.use(profile);
  }

  /** Applies to packets from now on; those already planned keep their times. */
  use(profile: LinkProfile) {
    this.profile = profile;
    this.inBadState = false;
    const cap = profile.rateCap;
    this.bottleneck = cap && new TokenBucketQueue(cap.bitsPerSecond, cap.burstBytes, this.kind === 'stream' ? Number.POSITIVE_INFINITY : cap.queueBytes);
  }

  /** The fate of a packet of `bytes` sent at `nowMs`. */
  plan(nowMs: number, bytes: number): PacketFate {
    const lost = this.lossStep();
    if (lost && this.kind === 'datagrams') return { kind: 'lost' };
    const duplicated = this.kind === 'datagrams' && this.random() < this.profile.duplicateRate;
    const departureMs = this.bottleneck ? this.bottleneck.admit(nowMs, bytes) : nowMs;
    if (departureMs === null) return { kind: 'queue-dropped' };
    const resendMs = lost ? this.retransmitTimeoutMs() : 0;
    const atMs = [departureMs + resendMs + this.propagationMs()];
    if (duplicated) atMs.push(departureMs + this.propagationMs());
    if (this.kind === 'stream') {
      atMs[0] = Math.max(atMs[0]!, this.lastDeliveryMs);
      this.lastDeliveryMs = atMs[0]!;
    }
    return { kind: 'delivered', atMs };
  }

  private lossStep(): boolean {
    const { loss } = this.profile;
    const lost = this.random() < (this.inBadState ? loss.lossInBad : loss.lossInGood);
    const leave = this.random() < (this.inBadState ? loss.badToGood : loss.goodToBad);
    if (leave) this.inBadState = !this.inBadState;
    return lost;
  }

  private propagationMs(): number {
    const { ms, distribution } = this.profile.jitter;
    if (ms === 0) return this.profile.oneWayDelayMs;
    const spread = distribution === 'uniform' ? (this.random() * 2 - 1) * ms : Math.max(-ms, Math.min(ms, (this.standardNormal() * ms) / 2));
    return Math.max(0, this.profile.oneWayDelayMs + spread);
  }

  /** Box–Muller: a draw from N(0, 1) out of two uniform ones. */
  private standardNormal(): number {
    const u = 1 - this.random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.random());
  }

  /** RFC 6298's SRTT + 4·RTTVAR, taking the jitter bound for the variation. */
  private retransmitTimeoutMs(): number {
    return Math.max(MIN_RETRANSMIT_MS, 2 * this.profile.oneWayDelayMs + 4 * this.profile.jitter.ms);
  }
}
