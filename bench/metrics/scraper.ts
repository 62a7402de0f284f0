import { parsePrometheusText } from './prometheus-text';
import { SeriesStore } from './series-store';

/**
 * A scrape that takes longer than this fails, ending the target's series. Longer than the interval
 * (Prometheus allows at most the interval): an instance whose event loop stalls for a second or two
 * on a busy machine is late, not gone, and the ticks it misses are skipped.
 */
const SCRAPE_TIMEOUT_MS = 5000;

/**
 * Scrapes `/metrics` of each target every `intervalMs` into a SeriesStore, as Prometheus would
 * (the `instance` label is the target's host:port). A target is not asked again while a scrape of
 * it is under way, so that its points stay in time order.
 */
export class Scraper {
  readonly store = new SeriesStore();
  private readonly answeredAt: number[] = [];
  private readonly busy = new Set<string>();
  private readonly answered = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** The first answer that was not the text format: a fault of the server, not of the moment. */
  malformed: Error | null = null;

  constructor(
    private readonly targets: readonly string[],
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.scrapeAll(), this.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The times (ms) at which at least one target answered, in order. */
  get times(): number[] {
    return [...this.answeredAt].sort((a, b) => a - b);
  }

  /** Targets that answered at least once. */
  get targetsUp(): string[] {
    return this.targets.filter((target) => this.answered.has(target));
  }

  private async scrapeAll(): Promise<void> {
    const atMs = Date.now();
    const answers = await Promise.all(this.targets.filter((target) => !this.busy.has(target)).map((target) => this.scrape(target, atMs)));
    if (answers.some(Boolean)) this.answeredAt.push(atMs);
  }

  private async scrape(target: string, atMs: number): Promise<boolean> {
    this.busy.add(target);
    try {
      const response = await fetch(`http://${target}/metrics`, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const text = await response.text();
      try {
        this.store.addScrape(target, atMs, parsePrometheusText(text));
      } catch (error) {
        this.malformed ??= new Error(`${target}/metrics: ${(error as Error).message}`);
        throw error;
      }
      this.answered.add(target);
      return true;
    } catch {
      // Not up yet, gone, or unreadable: its series end here, as with Prometheus's staleness markers.
      this.store.addScrape(target, atMs, null);
      return false;
    } finally {
      this.busy.delete(target);
    }
  }
}
