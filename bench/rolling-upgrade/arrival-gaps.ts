/**
 * The longest stretch one direction of a call went without a frame arriving, from its first frame
 * sent to its last: a stream whose frames stop mid-call, even for a moment, shows it here.
 */
export class ArrivalGaps {
  longestMs = 0;
  /** When the longest stretch ended: the arrival after it, or the end of the sending. */
  longestEndedAt: number | null = null;
  private last: number | null = null;

  constructor(private readonly firstSentAt: number) {}

  arrived(at: number) {
    this.stretch(at - (this.last ?? this.firstSentAt), at);
    this.last = at;
  }

  /** The last frame was sent at `at`: frames that stopped coming before it count up to there. */
  sendingEnded(at: number) {
    const from = this.last ?? this.firstSentAt;
    if (at > from) this.stretch(at - from, at);
  }

  private stretch(ms: number, endedAt: number) {
    if (ms <= this.longestMs) return;
    this.longestMs = ms;
    this.longestEndedAt = endedAt;
  }
}
