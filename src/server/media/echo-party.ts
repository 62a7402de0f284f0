import { frameSamples, type CallSampleRate } from '../../common/calls';
import { BaseLeg } from './leg';

/**
 * Frames that may wait at once beyond the delay itself: a second of them. A sender that stalls
 * (a busy browser or instance) catches up with a burst, and the echo plays it back whole: with
 * room for 200 ms, bursts on a loaded machine dropped frames, cutting holes in the voice and in
 * touch-tones (docs/calls.md#touch-tones).
 */
const SPARE_FRAMES = 50;

/**
 * The built-in party that plays back what it hears after a short delay: the sound-test line and
 * the virtual carrier's answer to outside numbers.
 *
 * Frames wait in a fixed ring of reused buffers with one timer per call. A copy and a timer per
 * frame made every held frame live long enough to be promoted, and at a few hundred calls the
 * full collections that followed stalled every call's audio (docs/benchmarks.md).
 */
export class EchoParty extends BaseLeg {
  readonly kind = 'echo' as const;
  private readonly ring: Int16Array[];
  private readonly dueAt: Float64Array;
  private head = 0;
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly sampleRate: CallSampleRate,
    private readonly delayMs: number,
  ) {
    super();
    const slots = delayMs > 0 ? Math.ceil(delayMs / 20) + SPARE_FRAMES : 0;
    this.ring = Array.from({ length: slots }, () => new Int16Array(frameSamples(sampleRate)));
    this.dueAt = new Float64Array(slots);
  }

  send(frame: Int16Array) {
    if (this.isClosed) return;
    if (this.ring.length === 0) {
      this.emitFrame(frame);
      return;
    }
    // A full ring means the timer is far behind: the oldest frame is too late to be worth playing.
    if (this.count === this.ring.length) this.dropOldest();
    const slot = (this.head + this.count) % this.ring.length;
    this.ring[slot]!.set(frame);
    this.dueAt[slot] = performance.now() + this.delayMs;
    this.count += 1;
    if (this.timer === undefined) this.schedule();
  }

  private dropOldest() {
    this.head = (this.head + 1) % this.ring.length;
    this.count -= 1;
  }

  private schedule() {
    const wait = Math.max(0, this.dueAt[this.head]! - performance.now());
    this.timer = setTimeout(() => this.playDue(), wait);
  }

  private playDue() {
    this.timer = undefined;
    const now = performance.now();
    while (this.count > 0 && !this.isClosed && this.dueAt[this.head]! <= now) {
      // The slot stays taken while it is emitted, so nothing sent meanwhile can overwrite it.
      this.emitFrame(this.ring[this.head]!);
      if (this.count > 0) this.dropOldest();
    }
    if (this.count > 0 && !this.isClosed) this.schedule();
  }

  protected release() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.count = 0;
  }
}
