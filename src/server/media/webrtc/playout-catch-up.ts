/**
 * When to start our stream to a browser afresh after it said its playout runs late (media.catchUp,
 * docs/calls.md#catching-up). A new SSRC gives the browser a new jitter buffer at its smallest
 * delay, and whatever the old one still held plays out beside the new stream's first moments. So
 * the restart waits for our audio to have been quiet as long as the browser said it holds, and
 * then nothing but quiet overlaps. A talker who never pauses that long gets it in a shorter pause:
 * after half of PATIENCE_MS the pause asked for shrinks, down to any quiet frame once PATIENCE_MS
 * have passed, so the restart takes the longest pause it can get soon rather than the first quiet
 * frame after a wait: a short overlap, rather than the delay for the rest of the call.
 */

/** 20 ms frames. */
const FRAME_MS = 20;
/** About -50 dBFS: below speech, above the comfort noise of a quiet room. */
const QUIET_POWER = 100 * 100;
/** A full quiet buffer is waited for this long; the pause asked for then shrinks to a frame at PATIENCE_MS… */
const FULL_PAUSE_MS = 500;
const PATIENCE_MS = 1_000;
/** …and the request dropped after this long without a quiet frame (the browser asks again if it still needs to). */
const GIVE_UP_MS = 10_000;
/** What the browser may hold that matters: beyond this much quiet, more is not needed. */
const LONGEST_WAIT_FOR_QUIET_MS = 1_000;

function isQuiet(frame: Int16Array): boolean {
  let power = 0;
  for (let i = 0; i < frame.length; i += 1) power += frame[i]! * frame[i]!;
  return power / frame.length < QUIET_POWER;
}

export class PlayoutCatchUp {
  private quietMs = 0;
  private wanted: { quietMs: number; since: number } | null = null;

  /** The browser holds `bufferedMs` of our audio that it should not: restart at the next fitting moment. */
  request(bufferedMs: number, nowMs: number) {
    this.wanted ??= { quietMs: Math.min(Math.max(bufferedMs, FRAME_MS), LONGEST_WAIT_FOR_QUIET_MS), since: nowMs };
  }

  /** Takes each frame about to be sent; true when the stream should start afresh with this one. */
  restartBefore(frame: Int16Array, nowMs: number): boolean {
    this.quietMs = isQuiet(frame) ? this.quietMs + FRAME_MS : 0;
    const wanted = this.wanted;
    if (!wanted) return false;
    const waited = nowMs - wanted.since;
    if (waited > GIVE_UP_MS) {
      this.wanted = null;
      return false;
    }
    if (this.quietMs === 0 || this.quietMs < pauseAskedFor(wanted.quietMs, waited)) return false;
    this.wanted = null;
    return true;
  }
}

/** The quiet wanted `waited` ms after the request: all of it at first, then less and less, then any. */
function pauseAskedFor(quietMs: number, waited: number): number {
  if (waited <= FULL_PAUSE_MS) return quietMs;
  return quietMs * Math.max(0, (PATIENCE_MS - waited) / (PATIENCE_MS - FULL_PAUSE_MS));
}
