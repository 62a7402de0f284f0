import { CALL_FIGURES_INTERVAL_MS, CallFiguresLog, figuresOf, type CallFigures } from './call-figures';
import type { CallMediaLink } from './call-media-link';
import type { CallSessionDeps } from './call-session-ports';
import type { LiveCall } from './call-snapshot';

/** What Call details reads: the latest figures of the call in this tab, null while none are known. */
export interface CallFiguresStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): CallFigures | null;
}

/** Readings in a row that must be Poor before the notice: one bad second while the audio settles is not a poor line. */
const POOR_READINGS_BEFORE_NOTICE = 2;

interface Watched {
  callId: string;
  media: CallMediaLink;
  voiceDelayMs: number;
  log: CallFiguresLog;
  poorInARow: number;
  stop: () => void;
}

type WatchDeps = Pick<CallSessionDeps, 'clock' | 'notices' | 'server' | 'onCallEnded'>;

/**
 * Reads the call's audio figures every second while it is connected and answered
 * (docs/calls.md#call-details), warns once each time the line turns Poor (two readings in a row),
 * and when the call is over sends their averages and worst to its record.
 */
export class CallFiguresWatch implements CallFiguresStore {
  private watched: Watched | null = null;
  private latest: CallFigures | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: WatchDeps) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): CallFigures | null => this.latest;

  /** Called on every change of the tab's call: starts on an answered call whose audio is up, and ends with it. */
  follow(call: LiveCall | null) {
    const up = call?.callId && call.media && call.phase === 'active' ? call : null;
    if (this.watched && this.watched.media !== up?.media) this.finish(this.watched);
    if (up && !this.watched) this.start(up.callId!, up.media!, up.voiceDelayMs);
  }

  private start(callId: string, media: CallMediaLink, voiceDelayMs: number) {
    const watched: Watched = { callId, media, voiceDelayMs, log: new CallFiguresLog(), poorInARow: 0, stop: () => undefined };
    // The link's rates count from its previous reading: one now leaves the ringing and the connecting out.
    void (async () => media.stats())().catch(() => undefined);
    watched.stop = this.deps.clock.every(CALL_FIGURES_INTERVAL_MS, () => void this.read(watched));
    this.watched = watched;
  }

  private async read(watched: Watched) {
    let figures: CallFigures;
    try {
      figures = figuresOf(await watched.media.stats(), watched.voiceDelayMs);
    } catch {
      // The audio closed while it was read: the call is ending.
      return;
    }
    if (this.watched !== watched) return;
    watched.log.add(figures);
    watched.poorInARow = figures.quality === 'poor' ? watched.poorInARow + 1 : 0;
    if (watched.poorInARow === POOR_READINGS_BEFORE_NOTICE) {
      this.deps.notices.warning('Poor call quality', { description: 'The line is losing or delaying audio; the other side may hear you break up.' });
    }
    this.latest = figures;
    this.emit();
  }

  private finish(watched: Watched) {
    watched.stop();
    this.watched = null;
    this.latest = null;
    this.emit();
    const summary = watched.log.summary();
    if (!summary) return;
    // The history shows the figures once they are kept: it is read again then.
    void this.deps.server.saveMediaFigures(watched.callId, summary).then(
      () => this.deps.onCallEnded(),
      () => undefined,
    );
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}
