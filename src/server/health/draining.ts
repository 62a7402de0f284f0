/**
 * Whether this instance has begun to shut down. From that moment its readiness answers 503, so
 * that a load balancer sends new calls and tabs elsewhere while it finishes (issue 23: the drain
 * keeps its calls up meanwhile; today a shutdown ends them).
 */
export class Draining {
  private began = false;

  begin() {
    this.began = true;
  }

  get active(): boolean {
    return this.began;
  }
}
