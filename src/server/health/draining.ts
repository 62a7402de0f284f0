/**
 * Whether this instance has begun to drain (docs/deploy.md#draining): from the first SIGTERM, or
 * when the app closes. From that moment its readiness answers 503, so that a load balancer sends
 * new calls and tabs elsewhere, and what registered with `onBegin` stops taking new work here,
 * while the calls already up go on until they end (main.ts waits for `callsInProgress` to reach 0).
 */
export class Draining {
  private began = false;
  private readonly beginListeners: (() => void)[] = [];
  private countCalls: () => number = () => 0;

  /** Runs `listener` once, when the drain begins. */
  onBegin(listener: () => void) {
    this.beginListeners.push(listener);
  }

  /** What `callsInProgress` counts: the app's calls that stopping the process now would cut. */
  countCallsWith(count: () => number) {
    this.countCalls = count;
  }

  begin() {
    if (this.began) return;
    this.began = true;
    for (const listener of this.beginListeners) listener();
  }

  get active(): boolean {
    return this.began;
  }

  get callsInProgress(): number {
    return this.countCalls();
  }
}
