/**
 * What a listener got, from two recordings on one wall clock: the audio a talker's page sent (its
 * microphone as the app captured it) and the audio the listener's page played. Everything is read
 * from loudness envelopes, which survive a codec, resampling and gain changes while a waveform
 * comparison would not.
 */

/** Mono audio from wall time `startMs` (ms since the epoch) on. */
export interface Recording {
  startMs: number;
  sampleRate: number;
  samples: Float32Array;
}

interface DelayEstimate {
  /** The middle of the heard stretch it was measured on. */
  atMs: number;
  delayMs: number;
  /** How well the heard envelope matched the sent one at that delay (Pearson, −1…1). */
  score: number;
}

/** Heard near-silence where the sent audio, at the delay, was speaking. */
interface Gap {
  startMs: number;
  endMs: number;
}

export interface ListenerFigures {
  /** One per stretch whose envelope matched the sent audio well enough to tell its delay. */
  delays: DelayEstimate[];
  /** The middles of the stretches that matched the sent audio at no delay: not recognisably heard. */
  unmatchedAtMs: number[];
  delayP50Ms: number | null;
  delayP95Ms: number | null;
  gaps: Gap[];
  longestGapMs: number;
  /** Share of the sent speech (at its delay) that the listener heard as more than near-silence. */
  heardShare: number;
  /** Pearson correlation of the sent and heard loudness per 20 ms, each heard block against the sent one at its delay. */
  correlation: number | null;
}

export interface AnalysisOptions {
  /** The longest mouth-to-ear delay looked for; the sent recording must start this long before `fromMs`. */
  maxDelayMs: number;
}

const DELAY_HOP_MS = 5;
const DELAY_ENVELOPE_MS = 10;
/** Long enough to hold about ten syllables, so that one stretch matches at one delay only: another talker's stretches match below MIN_DELAY_SCORE. */
const DELAY_STRETCH_MS = 2_000;
const DELAY_STEP_MS = 250;
/** Below this match, a stretch is noise or silence on one side and says nothing about the delay. */
const MIN_DELAY_SCORE = 0.7;
const GAP_BLOCK_MS = 10;
const LOUDNESS_BLOCK_MS = 20;
/** The sent audio counts as speech above this share of its loud level (−20 dB)… */
const SPEECH_SHARE = 0.1;
/** …and the heard audio as near-silence below this share of what it should be (−20 dB), or below −80 dBFS. */
const SILENCE_SHARE = 0.1;
const SILENCE_FLOOR = 1e-4;
/** Sent speech counts only this far inside a syllable, so that an envelope a few ms off never makes a gap. */
const SPEECH_MARGIN_MS = 20;
/** A moment may be heard at the delay of any stretch whose middle is this near. */
const DELAY_NEIGHBOURHOOD_MS = 1_000;

/** RMS of the samples within ± widthMs / 2 of wall time `atMs`; 0 outside the recording. */
function rmsAt(recording: Recording, atMs: number, widthMs: number): number {
  const { sampleRate, samples, startMs } = recording;
  const from = Math.max(0, Math.round(((atMs - widthMs / 2 - startMs) * sampleRate) / 1000));
  const to = Math.min(samples.length, Math.round(((atMs + widthMs / 2 - startMs) * sampleRate) / 1000));
  if (to <= from) return 0;
  let sum = 0;
  for (let i = from; i < to; i += 1) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / (to - from));
}

/** The loudness at wall times fromMs, fromMs + hopMs, … below toMs. */
function envelope(recording: Recording, fromMs: number, toMs: number, hopMs: number, widthMs: number): Float64Array {
  const count = Math.max(0, Math.floor((toMs - fromMs) / hopMs));
  return Float64Array.from({ length: count }, (_, i) => rmsAt(recording, fromMs + i * hopMs, widthMs));
}

/** Pearson correlation of a[aFrom…aFrom+length) and b[bFrom…bFrom+length); null when either is flat. */
function pearson(a: ArrayLike<number>, aFrom: number, b: ArrayLike<number>, bFrom: number, length: number): number | null {
  let sumA = 0;
  let sumB = 0;
  for (let i = 0; i < length; i += 1) {
    sumA += a[aFrom + i]!;
    sumB += b[bFrom + i]!;
  }
  const meanA = sumA / length;
  const meanB = sumB / length;
  let covariance = 0;
  let varianceA = 0;
  let varianceB = 0;
  for (let i = 0; i < length; i += 1) {
    const da = a[aFrom + i]! - meanA;
    const db = b[bFrom + i]! - meanB;
    covariance += da * db;
    varianceA += da * da;
    varianceB += db * db;
  }
  if (varianceA === 0 || varianceB === 0) return null;
  return covariance / Math.sqrt(varianceA * varianceB);
}

/** The value below which `share` (0…1) of the values lie (nearest rank); null for none. */
export function percentile(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

/**
 * The delay of each 2 s stretch of heard audio behind the sent audio, every 250 ms: the lag at
 * which the envelopes match best, refined between the 5 ms steps by a parabola through the peak.
 * Stretches that match at no lag are listed apart, by their middles.
 */
function delayEstimates(sent: Recording, heard: Recording, fromMs: number, toMs: number, { maxDelayMs }: AnalysisOptions) {
  const heardEnvelope = envelope(heard, fromMs, toMs, DELAY_HOP_MS, DELAY_ENVELOPE_MS);
  // Sent index j is at fromMs − maxDelayMs + j·hop: heard index i at lag k hops matches sent index i + lags − k.
  const lags = Math.floor(maxDelayMs / DELAY_HOP_MS);
  const sentEnvelope = envelope(sent, fromMs - lags * DELAY_HOP_MS, toMs, DELAY_HOP_MS, DELAY_ENVELOPE_MS);
  const length = DELAY_STRETCH_MS / DELAY_HOP_MS;
  const estimates: DelayEstimate[] = [];
  const unmatched: number[] = [];
  for (let start = 0; start + length <= heardEnvelope.length; start += DELAY_STEP_MS / DELAY_HOP_MS) {
    const scores = Array.from({ length: lags + 1 }, (_, lag) => pearson(heardEnvelope, start, sentEnvelope, start + lags - lag, length) ?? Number.NaN);
    let best = -1;
    let score = Number.NEGATIVE_INFINITY;
    scores.forEach((value, lag) => {
      if (value > score) [best, score] = [lag, value];
    });
    const atMs = fromMs + (start + length / 2) * DELAY_HOP_MS;
    if (score < MIN_DELAY_SCORE) {
      unmatched.push(atMs);
      continue;
    }
    const before = scores[best - 1];
    const after = scores[best + 1];
    let refined = best;
    if (before !== undefined && after !== undefined && Number.isFinite(before) && Number.isFinite(after)) {
      const curvature = before - 2 * score + after;
      if (curvature < 0) refined += (0.5 * (before - after)) / curvature;
    }
    estimates.push({ atMs, delayMs: refined * DELAY_HOP_MS, score });
  }
  return { estimates, unmatched };
}

/** The delay in force at `atMs`: that of the nearest estimate. */
function delayAt(estimates: readonly DelayEstimate[], atMs: number): number {
  let nearest = estimates[0]!;
  for (const estimate of estimates) if (Math.abs(estimate.atMs - atMs) < Math.abs(nearest.atMs - atMs)) nearest = estimate;
  return nearest.delayMs;
}

/**
 * The delays a moment may be heard at: from the least to the most of those measured on the
 * stretches within a second of it and on the nearest stretch on each side. Where the delay moves
 * (a jitter buffer growing or shrinking), the stretches around it disagree or match at no delay at
 * all; a gap has to be one at every delay in between.
 */
function delayRange(estimates: readonly DelayEstimate[], atMs: number): [number, number] {
  const before = estimates.findLast((estimate) => estimate.atMs <= atMs);
  const after = estimates.find((estimate) => estimate.atMs >= atMs);
  const delays = [before, after, ...estimates.filter((estimate) => Math.abs(estimate.atMs - atMs) <= DELAY_NEIGHBOURHOOD_MS)].flatMap((estimate) => (estimate ? [estimate.delayMs] : []));
  return [Math.min(...delays), Math.max(...delays)];
}

/**
 * Gaps, and how much of the sent speech was heard, in 10 ms blocks over [fromMs, toMs). A block is
 * missing speech when, at every delay it may be heard at, the sent audio was speaking (well inside
 * a syllable) and the heard block is 20 dB or more below what the sent audio, times the usual
 * sent-to-heard gain, would make it.
 */
function gapsHeard(sent: Recording, heard: Recording, fromMs: number, toMs: number, estimates: readonly DelayEstimate[]) {
  const blocks = Math.floor((toMs - fromMs) / GAP_BLOCK_MS);
  const blockMs = (i: number) => fromMs + (i + 0.5) * GAP_BLOCK_MS;
  const sentLevel = (atMs: number) => rmsAt(sent, atMs, GAP_BLOCK_MS);
  /** The sent audio's lowest level heard at `atMs` at any delay from `least` to `most`. */
  const lowest = (atMs: number, least: number, most: number) => {
    let level = Number.POSITIVE_INFINITY;
    for (let delayMs = least; delayMs < most + GAP_BLOCK_MS; delayMs += GAP_BLOCK_MS / 2) level = Math.min(level, sentLevel(atMs - Math.min(delayMs, most)));
    return level;
  };
  const speechLevel = SPEECH_SHARE * (percentile(Array.from({ length: blocks }, (_, i) => sentLevel(blockMs(i) - delayAt(estimates, blockMs(i)))), 0.95) ?? 0);
  const expected = Array.from({ length: blocks }, (_, i) => {
    const [least, most] = delayRange(estimates, blockMs(i));
    return { level: lowest(blockMs(i), least, most), speaking: speechLevel > 0 && lowest(blockMs(i), least - SPEECH_MARGIN_MS, most + SPEECH_MARGIN_MS) > speechLevel };
  });
  const speaking = expected.map((block) => block.speaking);
  const heardLevels = Array.from({ length: blocks }, (_, i) => rmsAt(heard, blockMs(i), GAP_BLOCK_MS));
  const gain = percentile(heardLevels.flatMap((level, i) => (speaking[i] ? [level / expected[i]!.level] : [])), 0.5) ?? 0;
  const silent = heardLevels.map((level, i) => level < Math.max(SILENCE_FLOOR, SILENCE_SHARE * gain * expected[i]!.level));

  const gaps: Gap[] = [];
  let spoken = 0;
  let heardSpoken = 0;
  // The first and last block of missing speech in the current run of near-silence; -1 for none yet.
  let first = -1;
  let last = -1;
  for (let i = 0; i <= blocks; i += 1) {
    if (i < blocks && speaking[i]) {
      spoken += 1;
      if (!silent[i]) heardSpoken += 1;
    }
    if (i < blocks && silent[i]) {
      if (speaking[i]) [first, last] = [first < 0 ? i : first, i];
      continue;
    }
    if (first >= 0) gaps.push({ startMs: fromMs + first * GAP_BLOCK_MS, endMs: fromMs + (last + 1) * GAP_BLOCK_MS });
    [first, last] = [-1, -1];
  }
  return { gaps, heardShare: spoken > 0 ? heardSpoken / spoken : 0 };
}

/** Pearson correlation of 20 ms loudness, each heard block against the sent one at its delay. */
function loudnessCorrelation(sent: Recording, heard: Recording, fromMs: number, toMs: number, estimates: readonly DelayEstimate[]): number | null {
  const blocks = Math.floor((toMs - fromMs) / LOUDNESS_BLOCK_MS);
  const at = (i: number) => fromMs + (i + 0.5) * LOUDNESS_BLOCK_MS;
  const heardLevels = Array.from({ length: blocks }, (_, i) => rmsAt(heard, at(i), LOUDNESS_BLOCK_MS));
  const sentLevels = Array.from({ length: blocks }, (_, i) => rmsAt(sent, at(i) - delayAt(estimates, at(i)), LOUDNESS_BLOCK_MS));
  return blocks > 1 ? pearson(sentLevels, 0, heardLevels, 0, blocks) : null;
}

/**
 * What the listener heard of the sent audio over [fromMs, toMs): mouth-to-ear delays, gaps,
 * the share heard, and the loudness correlation. With no stretch matching well enough to tell a
 * delay, nothing was recognisably heard: no delay, no correlation, and the whole window is a gap.
 */
export function analyseListener(sent: Recording, heard: Recording, fromMs: number, toMs: number, options: AnalysisOptions): ListenerFigures {
  const { estimates: delays, unmatched: unmatchedAtMs } = delayEstimates(sent, heard, fromMs, toMs, options);
  if (delays.length === 0) {
    return { delays, unmatchedAtMs, delayP50Ms: null, delayP95Ms: null, gaps: [{ startMs: fromMs, endMs: toMs }], longestGapMs: toMs - fromMs, heardShare: 0, correlation: null };
  }
  const values = delays.map(({ delayMs }) => delayMs);
  const { gaps, heardShare } = gapsHeard(sent, heard, fromMs, toMs, delays);
  return {
    delays,
    unmatchedAtMs,
    delayP50Ms: percentile(values, 0.5),
    delayP95Ms: percentile(values, 0.95),
    gaps,
    longestGapMs: Math.max(0, ...gaps.map(({ startMs, endMs }) => endMs - startMs)),
    heardShare,
    correlation: loudnessCorrelation(sent, heard, fromMs, toMs, delays),
  };
}

/** What recovery waits for: gaps to stop, and with `delay`, the delay to settle near its figure before. */
export interface RecoveryCriteria {
  /** A stretch heard more than `toleranceMs` beyond `normalMs`, or at no one delay (still moving), is not recovered. */
  delay: { normalMs: number; toleranceMs: number } | null;
  /** Recovery must have held this long before the window ends to count. */
  settledMs: number;
}

/**
 * How long after `switchMs` (a bad link turning clean) the listener's audio was back to normal:
 * the end of the last gap after the switch, or with `delay` the middle of the last stretch off its
 * delay, if later; 0 when nothing was off. Null when something was still off in the last
 * `settledMs` of the window, which then says nothing about recovery.
 */
export function recoveryMs(figures: ListenerFigures, switchMs: number, toMs: number, { delay, settledMs }: RecoveryCriteria): number | null {
  const offAt = figures.gaps.map(({ endMs }) => endMs);
  if (delay) {
    offAt.push(...figures.delays.filter(({ delayMs }) => delayMs > delay.normalMs + delay.toleranceMs).map(({ atMs }) => atMs), ...figures.unmatchedAtMs);
  }
  const lastOff = Math.max(switchMs, ...offAt.filter((atMs) => atMs > switchMs));
  return lastOff > toMs - settledMs ? null : lastOff - switchMs;
}
