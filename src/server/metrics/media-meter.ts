import type { Histogram } from 'prom-client';
import { FRAME_MS } from '../../common/calls';

/**
 * How call audio crosses this instance's edge: a browser's transport (docs/calls.md#media), the
 * provider's media socket, or another instance, for a call whose browser socket it holds (relay).
 */
export const meteredTransports = ['webrtc', 'websocket-opus', 'websocket-pcm', 'vonage', 'relay'] as const;
type MeteredTransport = (typeof meteredTransports)[number];

/** The frames of one transport since the instance started. */
interface TransportTally {
  framesIn: number;
  framesOut: number;
  concealed: number;
}

/** RFC 3550's interarrival jitter: each new difference moves the estimate a sixteenth of the way. */
const JITTER_GAIN = 1 / 16;
/** A stream's jitter is observed once per this many frames received: once a second. */
const FRAMES_PER_JITTER_OBSERVATION = 50;

/**
 * One stream of call audio at the instance's edge (a leg, or a relayed browser socket). Every
 * frame adds to plain numbers, read at each scrape: a prom-client counter hashes its labels and
 * allocates on every increment (about 0.3 µs), four times a frame on every call.
 */
export class StreamMeter {
  private lastArrival = -1;
  private jitterMs = 0;
  private received = 0;

  constructor(
    private readonly tally: TransportTally = { framesIn: 0, framesOut: 0, concealed: 0 },
    private readonly observeJitter: ((seconds: number) => void) | null = null,
  ) {}

  /**
   * A frame arrived from the far side, `spacing` frame periods after the one before it: what the
   * RTP sequence says, or 1 on a socket, whose messages carry no numbers. 0 when it is not known
   * (the stream started again): the jitter estimate resumes from this frame. `at`: the arrival
   * time in milliseconds, by default now.
   */
  frameIn(spacing = 1, at?: number) {
    this.tally.framesIn += 1;
    if (!this.observeJitter) return;
    const now = at ?? performance.now();
    if (spacing > 0 && this.lastArrival >= 0) {
      this.jitterMs += (Math.abs(now - this.lastArrival - spacing * FRAME_MS) - this.jitterMs) * JITTER_GAIN;
    }
    this.lastArrival = now;
    this.received += 1;
    if (this.received % FRAMES_PER_JITTER_OBSERVATION === 0) this.observeJitter(this.jitterMs / 1000);
  }

  /** A frame went out to the far side. */
  frameOut() {
    this.tally.framesOut += 1;
  }

  /** A frame was made up by loss concealment in place of one that never arrived. */
  concealed() {
    this.tally.concealed += 1;
  }
}

/** The media figures of an instance, per transport; `jitter` (voxline_media_jitter_seconds) takes each stream's estimate. */
export class MediaMetrics {
  private readonly tallies = new Map<MeteredTransport, TransportTally>(meteredTransports.map((transport) => [transport, { framesIn: 0, framesOut: 0, concealed: 0 }]));
  private readonly jitterObservers: Map<MeteredTransport, (seconds: number) => void> | null;

  constructor(jitter: Histogram<'transport'> | null = null) {
    this.jitterObservers = jitter ? new Map(meteredTransports.map((transport) => [transport, jitter.labels(transport).observe])) : null;
  }

  /** The meter of a new stream over `transport`. */
  stream(transport: MeteredTransport): StreamMeter {
    return new StreamMeter(this.tallies.get(transport), this.jitterObservers?.get(transport) ?? null);
  }

  /** The frames counted so far, by transport. */
  totals(): ReadonlyMap<MeteredTransport, Readonly<TransportTally>> {
    return this.tallies;
  }
}
