import { frameSamples, WIDEBAND_RATE, type CallSampleRate } from '../../common/calls';
import { FrameConverter } from '../media/frame-converter';

/** The rate recordings are written at: a narrowband leg's frames are converted up to it. */
export const RECORDING_RATE = WIDEBAND_RATE;
const FRAME = frameSamples(RECORDING_RATE);
/**
 * Frames one channel may get ahead of the other before the other is taken as silent: the two legs
 * tick on their own clocks, and a side that sends nothing (its socket stalled) must not hold the file up.
 */
const MAX_AHEAD = 10;

/** One channel's frames waiting for the other's, in a fixed ring: nothing is allocated per frame. */
class ChannelQueue {
  private readonly ring = new Int16Array(FRAME * (MAX_AHEAD + 1));
  private head = 0;
  count = 0;
  private readonly converter: FrameConverter | null;
  /** Bound once: a closure per frame would be garbage per frame. */
  private readonly pushConverted = (frame: Int16Array) => this.push(frame);

  /** `queued` runs after each whole recording frame added. */
  constructor(
    sampleRate: CallSampleRate,
    private readonly queued: () => void,
  ) {
    this.converter = sampleRate === RECORDING_RATE ? null : new FrameConverter(sampleRate, RECORDING_RATE);
  }

  /** Takes a frame at the channel's own rate. */
  add(frame: Int16Array) {
    if (this.converter) this.converter.convert(frame, this.pushConverted);
    else this.push(frame);
  }

  private push(frame: Int16Array) {
    if (frame.length !== FRAME) return;
    const slots = this.ring.length / FRAME;
    if (this.count === slots) {
      this.head = (this.head + 1) % slots;
      this.count -= 1;
    }
    this.ring.set(frame, ((this.head + this.count) % slots) * FRAME);
    this.count += 1;
    this.queued();
  }

  /** Moves the oldest frame into `out` (silence when there is none). */
  take(out: Int16Array) {
    if (this.count === 0) {
      out.fill(0);
      return;
    }
    const start = this.head * FRAME;
    out.set(this.ring.subarray(start, start + FRAME));
    this.head = (this.head + 1) % (this.ring.length / FRAME);
    this.count -= 1;
  }
}

/**
 * Pairs the frames of a recording's two channels, each arriving at its leg's rate and pace, into
 * stereo frames at RECORDING_RATE for the encoder: a pair as soon as both have one, and a channel
 * that falls MAX_AHEAD frames behind is written as silence.
 */
export class StereoFrames {
  private readonly left: ChannelQueue;
  private readonly right: ChannelQueue;
  private readonly leftOut = new Int16Array(FRAME);
  private readonly rightOut = new Int16Array(FRAME);
  constructor(
    leftRate: CallSampleRate,
    rightRate: CallSampleRate,
    private readonly write: (left: Int16Array, right: Int16Array) => void,
  ) {
    const drain = () => this.flush();
    this.left = new ChannelQueue(leftRate, drain);
    this.right = new ChannelQueue(rightRate, drain);
  }

  addLeft(frame: Int16Array) {
    this.left.add(frame);
  }

  addRight(frame: Int16Array) {
    this.right.add(frame);
  }

  private flush() {
    while ((this.left.count > 0 && this.right.count > 0) || this.left.count >= MAX_AHEAD || this.right.count >= MAX_AHEAD) {
      this.left.take(this.leftOut);
      this.right.take(this.rightOut);
      this.write(this.leftOut, this.rightOut);
    }
  }
}
