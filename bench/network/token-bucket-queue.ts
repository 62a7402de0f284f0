/**
 * A link's bottleneck: packets leave at most at `bitsPerSecond` (a token bucket that lets
 * `burstBytes` through at once after a quiet spell), in arrival order. A packet that has to wait
 * joins a queue of at most `queueBytes`; when it does not fit, it is dropped (drop-tail), as a
 * router's buffer does. Pure arithmetic on the times it is given, so a test can replay it exactly.
 */
export class TokenBucketQueue {
  private readonly bytesPerMs: number;
  private lastDepartureMs = Number.NEGATIVE_INFINITY;
  private tokensAtLastDeparture: number;
  /** Packets admitted and not yet gone, oldest first: what the queue holds at a given time. */
  private readonly waiting: { departureMs: number; bytes: number }[] = [];
  private waitingBytes = 0;

  constructor(
    bitsPerSecond: number,
    private readonly burstBytes: number,
    private readonly queueBytes: number,
  ) {
    this.bytesPerMs = bitsPerSecond / 8 / 1000;
    this.tokensAtLastDeparture = burstBytes;
  }

  /** When a packet of `bytes` arriving at `nowMs` leaves the bottleneck, or null when it is dropped. */
  admit(nowMs: number, bytes: number): number | null {
    this.forgetDeparted(nowMs);
    let departureMs = Math.max(nowMs, this.lastDepartureMs);
    let tokens = Math.min(this.burstBytes, this.tokensAtLastDeparture + (departureMs - this.lastDepartureMs) * this.bytesPerMs);
    // A packet larger than the burst waits for a full bucket and leaves it in debt, so the
    // average rate still holds.
    const needed = Math.min(bytes, this.burstBytes);
    if (tokens < needed) {
      departureMs += (needed - tokens) / this.bytesPerMs;
      tokens = needed;
    }
    if (departureMs > nowMs) {
      if (this.waitingBytes + bytes > this.queueBytes) return null;
      this.waiting.push({ departureMs, bytes });
      this.waitingBytes += bytes;
    }
    this.lastDepartureMs = departureMs;
    this.tokensAtLastDeparture = tokens - bytes;
    return departureMs;
  }

  private forgetDeparted(nowMs: number) {
    while (this.waiting.length > 0 && this.waiting[0]!.departureMs <= nowMs) this.waitingBytes -= this.waiting.shift()!.bytes;
  }
}
