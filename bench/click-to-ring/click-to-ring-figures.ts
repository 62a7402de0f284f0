import { percentile } from '../network/audio-analysis';

/** One measured call: its press-to-ring times, ms. */
export interface ClickToRing {
  /** The Call press to the request that places the call (the caller's microphone opened by then). */
  toRequestMs: number;
  /** The Call press to the Incoming Call card in the callee's document. */
  toDocumentMs: number;
  /** The Call press to the next animation frame after it: the card on screen. */
  toFrameMs: number;
}

/** Issue 22's target: the Call press to the callee's ring, p95. */
const TARGET_P95_MS = 200;

function row(label: string, values: readonly number[]) {
  const figure = (share: number) => (percentile(values, share) ?? Number.NaN).toFixed(0);
  return `| ${label} | ${values.length} | ${figure(0.5)} | ${figure(0.95)} | ${figure(1)} |`;
}

/** A Markdown table of p50 / p95 / max (nearest rank) over the calls, and the verdict on the target. */
export function clickToRingTable(calls: readonly ClickToRing[]): string[] {
  const toFrame = calls.map((call) => call.toFrameMs);
  const p95 = percentile(toFrame, 0.95);
  return [
    '| press of Call → | calls | p50 (ms) | p95 (ms) | max (ms) |',
    '| --- | --- | --- | --- | --- |',
    row('request placing the call sent (microphone open)', calls.map((call) => call.toRequestMs)),
    row('Incoming Call in the callee’s document', calls.map((call) => call.toDocumentMs)),
    row('Incoming Call painted (next frame)', toFrame),
    '',
    p95 === null ? 'No call measured.' : `Target p95 ≤ ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? 'met' : 'missed'} (${p95.toFixed(0)} ms).`,
  ];
}
