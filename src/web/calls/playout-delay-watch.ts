/**
 * Whether a WebRTC call's audio plays later than its link needs (docs/calls.md#catching-up).
 * Chromium's jitter buffer grows quickly on a bad link but gives the delay back over tens of
 * seconds once the link is clean again; the server can start its stream afresh, whose new jitter
 * buffer starts small. This reads the receiving side's stats as they come and says when to ask.
 */

/** What one getStats() reading says of the audio received. */
export interface PlayoutReading {
  /** When it was read (ms, the caller's clock). */
  at: number;
  ssrc: number;
  /** Seconds: the sum over every sample played of how long it waited in the jitter buffer. */
  jitterBufferDelay: number;
  jitterBufferEmittedCount: number;
  /** The network's interarrival jitter (RFC 3550), seconds. */
  jitter: number;
  packetsLost: number;
}

/** A link this steady needs no more buffer than… */
const CLEAN_JITTER_MS = 15;
/** …the larger of this and four times its jitter plus 40 ms (a packet late by its jitter, then room for one more). */
const LEAST_NEEDED_MS = 80;
/** Beyond what the link needs, the delay worth a restart (a listener notices 150 ms more in a conversation). */
const EXCESS_MS = 150;
/** The server needs time to find a quiet moment, and a new buffer time to settle, before asking again. */
const ASK_AGAIN_AFTER_MS = 10_000;

/** The audio received, from a getStats() report; null when it has none yet or the browser does not say. */
export function readPlayout(report: RTCStatsReport, at: number): PlayoutReading | null {
  let reading: PlayoutReading | null = null;
  report.forEach((entry: RTCStats) => {
    if (entry.type !== 'inbound-rtp' || (entry as RTCInboundRtpStreamStats).kind !== 'audio') return;
    const inbound = entry as RTCInboundRtpStreamStats;
    if (inbound.jitterBufferDelay === undefined || inbound.jitterBufferEmittedCount === undefined || inbound.jitter === undefined) return;
    reading = {
      at,
      ssrc: inbound.ssrc,
      jitterBufferDelay: inbound.jitterBufferDelay,
      jitterBufferEmittedCount: inbound.jitterBufferEmittedCount,
      jitter: inbound.jitter,
      packetsLost: inbound.packetsLost ?? 0,
    };
  });
  return reading;
}

export class PlayoutDelayWatch {
  private previous: PlayoutReading | null = null;
  private askedAt = Number.NEGATIVE_INFINITY;

  /** Takes the next reading; answers how long the buffer holds (ms) when the server should be asked to catch up, else null. */
  add(reading: PlayoutReading): number | null {
    const previous = this.previous;
    this.previous = reading;
    // A new stream (the server restarted it) has counts of its own: the next reading compares.
    if (!previous || previous.ssrc !== reading.ssrc) return null;
    const emitted = reading.jitterBufferEmittedCount - previous.jitterBufferEmittedCount;
    if (emitted <= 0 || reading.packetsLost > previous.packetsLost) return null;
    const jitterMs = reading.jitter * 1000;
    if (jitterMs > CLEAN_JITTER_MS) return null;
    const bufferedMs = ((reading.jitterBufferDelay - previous.jitterBufferDelay) / emitted) * 1000;
    const neededMs = Math.max(LEAST_NEEDED_MS, 4 * jitterMs + 40);
    if (bufferedMs - neededMs < EXCESS_MS || reading.at - this.askedAt < ASK_AGAIN_AFTER_MS) return null;
    this.askedAt = reading.at;
    return Math.round(bufferedMs);
  }
}
