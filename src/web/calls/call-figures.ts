import { rateCallQuality, type CallMediaFigures, type CallQuality, type FigureRange } from '../../common/call-quality';
import type { CallMediaStats } from './call-media-stats';

/** How often the call's figures are read while its audio is up. */
export const CALL_FIGURES_INTERVAL_MS = 1_000;

/** What Call details shows (docs/calls.md#call-details): the audio's figures now, the voice changer's delay, and the quality in one word. */
export interface CallFigures extends CallMediaStats {
  voiceDelayMs: number;
  quality: CallQuality;
}

/** Loss that is heard: packets lost, or audio made up for packets late (the websocket path loses none, only late ones). */
function heardLoss(lossShare: number | undefined, concealedShare: number | undefined): number | undefined {
  if (lossShare === undefined) return concealedShare;
  return concealedShare === undefined ? lossShare : Math.max(lossShare, concealedShare);
}

export function figuresOf(stats: CallMediaStats, voiceDelayMs: number): CallFigures {
  const quality = rateCallQuality({ lossShare: heardLoss(stats.lossShare, stats.concealedShare), jitterMs: stats.jitterMs, roundTripMs: stats.roundTripMs });
  return { ...stats, voiceDelayMs, quality };
}

const qualityOrder: readonly CallQuality[] = ['good', 'fair', 'poor'];

/** The running average and worst of one figure; nothing until a reading has it. */
class FigureTally {
  private sum = 0;
  private count = 0;
  private worst = 0;

  add(value: number | undefined) {
    if (value === undefined || !Number.isFinite(value)) return;
    this.sum += value;
    this.count += 1;
    this.worst = Math.max(this.worst, value);
  }

  get range(): FigureRange | null {
    return this.count === 0 ? null : { average: this.sum / this.count, worst: this.worst };
  }
}

/** A call's readings, summed up for its record: the average and the worst of each figure. */
export class CallFiguresLog {
  private readings = 0;
  private codec: string | null = null;
  private worstQuality: CallQuality = 'good';
  private readonly roundTripMs = new FigureTally();
  private readonly jitterMs = new FigureTally();
  private readonly lossShare = new FigureTally();
  private readonly concealedShare = new FigureTally();
  private readonly voiceDelayMs = new FigureTally();

  add(figures: CallFigures) {
    this.readings += 1;
    this.codec = figures.codec ?? this.codec;
    if (qualityOrder.indexOf(figures.quality) > qualityOrder.indexOf(this.worstQuality)) this.worstQuality = figures.quality;
    this.roundTripMs.add(figures.roundTripMs);
    this.jitterMs.add(figures.jitterMs);
    this.lossShare.add(figures.lossShare);
    this.concealedShare.add(figures.concealedShare);
    this.voiceDelayMs.add(figures.voiceDelayMs);
  }

  /** Null before the first reading. */
  summary(): CallMediaFigures | null {
    if (this.readings === 0) return null;
    const roundTripMs = this.roundTripMs.range;
    const jitterMs = this.jitterMs.range;
    const lossShare = this.lossShare.range;
    const concealedShare = this.concealedShare.range;
    const quality = rateCallQuality({ lossShare: heardLoss(lossShare?.average, concealedShare?.average), jitterMs: jitterMs?.average, roundTripMs: roundTripMs?.average });
    return {
      readings: this.readings,
      codec: this.codec,
      roundTripMs,
      jitterMs,
      lossShare,
      concealedShare,
      voiceDelayMs: this.voiceDelayMs.range ?? { average: 0, worst: 0 },
      quality,
      worstQuality: this.worstQuality,
    };
  }
}
