import type { CallSampleRate } from '../../common/calls';
import { BaseLeg } from './leg';

/**
 * The built-in party that plays back what it hears after a short delay: the sound-test line and
 * the virtual carrier's answer to outside numbers.
 */
export class EchoParty extends BaseLeg {
  readonly kind = 'echo' as const;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly sampleRate: CallSampleRate,
    private readonly delayMs: number,
  ) {
    super();
  }

  send(frame: Int16Array) {
    if (this.isClosed) return;
    const copy = frame.slice();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.emitFrame(copy);
    }, this.delayMs);
    this.timers.add(timer);
  }

  protected release() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
