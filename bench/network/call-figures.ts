import { analyseListener, type ListenerFigures, percentile } from './audio-analysis';
import { type CallCapture, MAX_DELAY_MS } from './call-capture';

/** What the table compares, for one call over one stretch, every listener in it together. */
export interface CallFigures {
  /** Mouth-to-ear beyond the delay the call adds on purpose (the sound-test line's echo); null when nothing was recognisably heard. */
  delayP50Ms: number | null;
  delayP95Ms: number | null;
  longestGapMs: number;
  gapsOver200Ms: number;
  heardShare: number;
  /** The lower of the listeners' loudness correlations; null when a listener heard nothing recognisable. */
  correlation: number | null;
}

const LONG_GAP_MS = 200;

/** Each listener's figures over [fromMs, toMs) of the capture's window. */
export function listenersOver(capture: CallCapture, fromMs: number, toMs: number): ListenerFigures[] {
  return capture.directions.map(({ sent, heard }) => analyseListener(sent, heard, fromMs, toMs, { maxDelayMs: MAX_DELAY_MS }));
}

/** The listeners' figures together: delays pooled, the longest gap of any, the worst correlation, the mean share heard. */
export function callFigures(listeners: readonly ListenerFigures[], intendedDelayMs: number): CallFigures {
  const delays = listeners.flatMap(({ delays }) => delays.map(({ delayMs }) => delayMs - intendedDelayMs));
  const correlations = listeners.map(({ correlation }) => correlation);
  return {
    delayP50Ms: percentile(delays, 0.5),
    delayP95Ms: percentile(delays, 0.95),
    longestGapMs: Math.max(0, ...listeners.map(({ longestGapMs }) => longestGapMs)),
    gapsOver200Ms: listeners.reduce((n, { gaps }) => n + gaps.filter(({ startMs, endMs }) => endMs - startMs > LONG_GAP_MS).length, 0),
    heardShare: listeners.reduce((sum, { heardShare }) => sum + heardShare, 0) / Math.max(1, listeners.length),
    correlation: correlations.some((value) => value === null) ? null : Math.min(...(correlations as number[])),
  };
}
