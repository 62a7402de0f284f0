import type { Bus, Unsubscribe } from '../bus/bus';

const CHANNEL = 'metrics:bus-lag';
const PROBE_MS = 1_000;

interface Probe {
  origin: string;
  /** The sender's clock (ms since the epoch) when it published. */
  sentAt: number;
}

/**
 * Measures the bus between instances (voxline_bus_lag_seconds): each instance publishes its clock
 * once a second, through the same connection and batching as every other message, and each other
 * instance observes how long ago that was when it arrives. The stamp travels in a message of its
 * own rather than in every message's envelope, so that during a rolling upgrade the instances of
 * the version before, which read the bus's messages as they are, keep working beside this one.
 * It reads the machines' clocks: they must agree (NTP), or the skew shows up as lag.
 */
export class BusLagProbe {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: Unsubscribe | null = null;

  constructor(
    private readonly bus: Bus,
    private readonly instanceId: string,
    private readonly observe: (seconds: number) => void,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly periodMs = PROBE_MS,
  ) {}

  async start() {
    this.unsubscribe = await this.bus.subscribe(CHANNEL, (payload) => {
      const probe = JSON.parse(payload.toString()) as Probe;
      if (probe.origin !== this.instanceId) this.observe(Math.max(0, Date.now() - probe.sentAt) / 1000);
    });
    this.timer = setInterval(() => {
      const probe: Probe = { origin: this.instanceId, sentAt: Date.now() };
      // Redis away: the bus's own users report it; a lost probe is a gap in the histogram.
      this.bus.publish(CHANNEL, JSON.stringify(probe)).catch(() => {});
    }, this.periodMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unsubscribe?.().catch((error: unknown) => this.log.warn({ err: error }, 'could not stop probing the bus'));
    this.unsubscribe = null;
  }
}
