/** A Voxline instance behind the balancer, and whether its readiness answered 200 at the last poll. */
export interface Upstream {
  name: string;
  port: number;
  ready: boolean;
}

/**
 * The instances a balancer sends to: new requests and websockets go to the ready ones in turn
 * (round robin); one that is not ready (starting, draining, failing a check) gets nothing new.
 */
export class UpstreamPool {
  private readonly upstreams: Upstream[] = [];
  private turn = 0;

  /** A new instance, not ready until its readiness says so. */
  add(name: string, port: number) {
    if (this.upstreams.some((upstream) => upstream.name === name)) throw new Error(`the balancer already has an upstream named ${name}`);
    this.upstreams.push({ name, port, ready: false });
  }

  remove(name: string) {
    const index = this.upstreams.findIndex((upstream) => upstream.name === name);
    if (index >= 0) this.upstreams.splice(index, 1);
  }

  /** Records a poll's answer; true when it changed the upstream's state. */
  setReady(name: string, ready: boolean): boolean {
    const upstream = this.upstreams.find((candidate) => candidate.name === name);
    if (!upstream || upstream.ready === ready) return false;
    upstream.ready = ready;
    return true;
  }

  /** Where the next request or websocket goes; null when no upstream is ready. */
  pick(): Upstream | null {
    const ready = this.upstreams.filter((upstream) => upstream.ready);
    if (ready.length === 0) return null;
    const chosen = ready[this.turn % ready.length]!;
    this.turn += 1;
    return chosen;
  }

  get all(): readonly Upstream[] {
    return this.upstreams;
  }
}
