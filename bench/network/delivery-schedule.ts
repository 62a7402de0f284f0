import { performance } from 'node:perf_hooks';

/**
 * Hands items over at their times (`performance.now()` milliseconds), earliest first and, for
 * equal times, in the order they were added, never early. One timer serves the whole schedule,
 * so a stream whose times never decrease is handed over in order, which separate timers of
 * different lengths would not promise.
 */
export class DeliverySchedule<T> {
  private readonly due: { atMs: number; item: T }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerAtMs = Number.POSITIVE_INFINITY;

  constructor(private readonly deliver: (item: T) => void) {}

  add(atMs: number, item: T) {
    let index = this.due.length;
    while (index > 0 && this.due[index - 1]!.atMs > atMs) index -= 1;
    this.due.splice(index, 0, { atMs, item });
    if (atMs < this.timerAtMs) this.arm();
  }

  /** Drops everything not yet handed over. */
  clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    this.due.length = 0;
  }

  private arm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    const next = this.due[0];
    if (!next) return;
    this.timerAtMs = next.atMs;
    // Node may fire a timer up to a millisecond before performance.now() reaches its time, so
    // the wait is rounded up and what is not yet due waits for another turn.
    this.timer = setTimeout(() => this.handOver(), Math.max(0, Math.ceil(next.atMs - performance.now())));
  }

  private handOver() {
    const now = performance.now();
    while (this.due.length > 0 && this.due[0]!.atMs <= now) this.deliver(this.due.shift()!.item);
    this.arm();
  }
}
