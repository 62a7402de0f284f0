import { FRAME_MS, frameSamples, type CallSampleRate } from '../../common/calls';
import { BaseLeg } from './leg';

/** Silence between two sayings of the phrase. */
const PAUSE_MS = 4_000;

/**
 * The virtual carrier's simulated caller (docs/calls.md#a-call-and-its-legs): once the call is joined it speaks its phrase
 * at real-time pace, pauses, and says it again, until either side hangs up. What it hears is
 * ignored. The phrase comes at the leg's own rate.
 */
export class SimulatedCaller extends BaseLeg {
  readonly kind = 'simulated' as const;
  private readonly frame: Int16Array;
  private readonly cycleSamples: number;
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private framesSent = 0;

  constructor(
    readonly sampleRate: CallSampleRate,
    private readonly phrase: Int16Array,
  ) {
    super();
    this.frame = new Int16Array(frameSamples(sampleRate));
    this.cycleSamples = phrase.length + (sampleRate * PAUSE_MS) / 1000;
  }

  connected() {
    if (this.timer || this.isClosed) return;
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.speak(), FRAME_MS);
  }

  send() {}

  /** Sends every frame due by now: a late timer catches up rather than slowing the voice down. */
  private speak() {
    const due = Math.floor((performance.now() - this.startedAt) / FRAME_MS);
    while (this.framesSent < due && !this.isClosed) {
      this.fill(this.framesSent * this.frame.length);
      this.framesSent += 1;
      this.emitFrame(this.frame);
    }
  }

  private fill(position: number) {
    for (let i = 0; i < this.frame.length; i += 1) this.frame[i] = this.phrase[(position + i) % this.cycleSamples] ?? 0;
  }

  protected release() {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
