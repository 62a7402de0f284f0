import type { Clock } from './call-session-ports';

export function elapsedSeconds(answeredAt: number | null, now: number): number {
  return answeredAt === null ? 0 : Math.max(0, Math.floor((now - answeredAt) / 1000));
}

/** What the page reads of a call's elapsed time, for useSyncExternalStore. */
export interface ElapsedSecondsStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): number;
}

/**
 * Whole seconds since the call in this tab was answered, ticking every second (docs/product.md §9);
 * 0 when no answered call is on. Kept apart from the call's snapshot so that only what shows the
 * time renders again each second, not every component that reads the call.
 */
export class ElapsedSeconds implements ElapsedSecondsStore {
  private seconds = 0;
  private answeredAt: number | null = null;
  private stopTicking: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): number => this.seconds;

  /** Counts from the answer (ms since the epoch) until stop(). */
  start(answeredAt: number) {
    this.stop();
    this.answeredAt = answeredAt;
    this.stopTicking = this.clock.every(1_000, () => this.update());
    this.update();
  }

  stop() {
    this.stopTicking?.();
    this.stopTicking = null;
    this.answeredAt = null;
    this.update();
  }

  private update() {
    const seconds = elapsedSeconds(this.answeredAt, this.clock.now());
    if (seconds === this.seconds) return;
    this.seconds = seconds;
    for (const listener of this.listeners) listener();
  }
}
