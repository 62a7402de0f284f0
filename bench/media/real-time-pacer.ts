import { performance } from 'node:perf_hooks';
import { FRAME_MS } from '../../src/common/calls';

/**
 * Sends frames 0…total-1 one frame period apart from a given instant, as a caller's microphone
 * would. Late timers send what is due at once, so the pace stays real-time on average.
 */
export class RealTimePacer {
  /** The next frame to send: the count sent so far. */
  next = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly total: number,
    private readonly send: (sequence: number) => void,
    /** Stops the pace early, e.g. once the socket has closed. */
    private readonly halted: () => boolean,
  ) {}

  start(firstDueAt: number, done: () => void) {
    const tick = () => {
      const now = performance.now();
      while (this.next < this.total && firstDueAt + this.next * FRAME_MS <= now + 0.5) this.send(this.next++);
      if (this.next >= this.total || this.halted()) {
        this.timer = null;
        done();
        return;
      }
      this.timer = setTimeout(tick, firstDueAt + this.next * FRAME_MS - now);
    };
    this.timer = setTimeout(tick, Math.max(0, firstDueAt - performance.now()));
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
