// docs/product.md §9: reconnect back-off 1 s, 2 s, 5 s, then 10 s.
const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000];
/**
 * A draining server's tabs reconnect within this long of its word (docs/deploy.md#draining), each
 * at a random moment, so that they do not all reach the other instances at once.
 */
const DRAIN_SPREAD_MS = 1_000;

/**
 * How long a tab waits before it opens its signalling socket again. After a socket the server
 * dropped: 1 s, 2 s, 5 s, then 10 s. After `server.draining`: a random moment within a second;
 * but a listening tab told to go again before any server confirmed it listens has reached a
 * draining server again (it is the only one), and backs off as after a drop, longer each time. A
 * tab listening on the next server moves quickly when that one drains too (a rolling upgrade). Kept apart
 * from the socket so that the rolling-upgrade bench moves its tabs exactly as browsers do.
 */
export class ReconnectPolicy {
  private attempt = 0;
  private drainsInARow = 0;
  /** Told to go, and not yet listening anywhere since. */
  private movedUnconfirmed = false;

  constructor(private readonly random: () => number = () => Math.random()) {}

  /** A socket opened. */
  opened() {
    this.attempt = 0;
  }

  /** The server said this tab listens on the socket in use: that server is not draining. */
  listening() {
    this.movedUnconfirmed = false;
    this.drainsInARow = 0;
  }

  /** The socket closed without the tab closing it: the wait before the next. */
  afterDrop(): number {
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    this.attempt += 1;
    return delay;
  }

  /**
   * The server said `server.draining` on the socket in use; `receiving`: the tab asked to listen.
   * Answers whether it reached a draining server again.
   */
  drained(receiving: boolean): boolean {
    const again = receiving && this.movedUnconfirmed;
    this.drainsInARow = again ? this.drainsInARow + 1 : 0;
    this.movedUnconfirmed = true;
    return again;
  }

  /** The wait before connecting again, once the tab lets go of the draining server's socket. */
  afterDrain(): number {
    return this.drainsInARow === 0 ? this.random() * DRAIN_SPREAD_MS : RECONNECT_DELAYS_MS[Math.min(this.drainsInARow, RECONNECT_DELAYS_MS.length - 1)]!;
  }
}
