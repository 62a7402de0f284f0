import type { SampleHistory } from './sample-history';

/**
 * Finds the pitch period of voiced speech around a point of the input: a coarse search over every
 * lag on a copy decimated to 4 kHz, then a search of a few lags at the full rate around it with
 * parabolic interpolation, so the period is known to a fraction of a sample.
 */

/** From a creaky bass to a child calling out (issue 21). */
const MIN_VOICE_HZ = 60;
const MAX_VOICE_HZ = 1000;
/**
 * Voices down to this are measured on a window centred on the point asked about; a lower voice's
 * window ends at the newest sample instead, up to 2.5 ms earlier at 60 Hz, so that the engine's
 * delay need not grow by twice that for the few voices that low.
 */
const CENTRED_DOWN_TO_HZ = 70;
const ANALYSIS_RATE = 4000;
/** Low-pass before decimation: higher formants mislead the coarse search, and the decimated copy must not alias. */
const DECIMATION_CUTOFF_HZ = 1000;
/**
 * A coarse result is reused this long; the fine search follows a glide in between. While the fine
 * search is tracking a voice, the coarse one is only there to catch a jump of an octave, and runs
 * three times less often.
 */
const COARSE_HOP_SECONDS = 0.01;
const TRACKING_HOPS = 3;
/** The fine search correlates at least this long a stretch (several periods of a high voice). */
const FINE_WIDTH_SECONDS = 0.01;
/** Normalised correlation below which a stretch counts as unvoiced (noise, silence, a click). */
const VOICED_CORRELATION = 0.6;
/** The first correlation peak this close to the best wins, so a period is not mistaken for two… */
const SUBHARMONIC_TOLERANCE = 0.88;
/** …of the coarse peaks at least this close, which are measured again at the full rate. */
const CANDIDATE_PEAK = 0.6;
/** Lags searched either side of the previous period (a fast glide moves 1.5 a period)… */
const TRACKING_RADIUS = 2;
/** …and how far the previous period may be from the coarse one before the coarse one wins. */
const TRACKING_TOLERANCE = 0.15;
/** Below about -66 dBFS there is nothing to track. */
const SILENT_POWER = 2.5e-7;
/**
 * While nothing is tracked, voices above 200 Hz are also looked for on the last 8 ms alone, which a
 * child's voice fills a few periods after it starts (the window of the longest lag takes 17 ms).
 */
const SHORT_WIDTH_SECONDS = 0.008;
const SHORT_LOWEST_HZ = 200;

export class PitchTracker {
  /** Shortest and longest periods reported, in samples at the input rate. */
  readonly minPeriod: number;
  readonly maxPeriod: number;
  /** The longest period whose estimate is centred on the point asked about (see `lookahead`). */
  readonly centredPeriod: number;
  /** The furthest `estimate(center)` reads past `center`, never past the newest sample written. */
  readonly lookahead: number;

  private readonly history: SampleHistory;
  private readonly factor: number;
  /**
   * The low-passed input at the full rate, for the fine search: its correlation peak is smooth. It
   * and the decimated copy are rings written twice over, at an index and one ring's length after
   * it, so that any stretch shorter than the ring lies in one straight run: the correlation loops
   * index it directly instead of masking every read or copying the stretch out first.
   */
  private readonly filtered: Float32Array;
  private readonly decimated: Float32Array;
  private readonly decimatedMask: number;
  private readonly minLag: number;
  private readonly maxLag: number;
  /** How far the fine search looks around a coarse result, and around the previous period. */
  private readonly coarseRadius: number;
  private readonly correlations: Float64Array;
  /** The energy of the earlier stretch at each lag, for the searches' correlations (the fine search's edge lags are correlated only when needed). */
  private readonly energies: Float64Array;
  private readonly coarseHop: number;
  /** The short window of the coarse search and its longest lag, in decimated samples. */
  private readonly shortWidth: number;
  private readonly shortLongestLag: number;
  /** The shortest stretch the fine search correlates. */
  private readonly fineWidth: number;
  private filteredUpTo = 0;
  private readonly b0: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly a1: number;
  private readonly a2: number;
  private z1 = 0;
  private z2 = 0;
  private coarseCenter = Number.NEGATIVE_INFINITY;
  private coarsePeriod = 0;
  /** The last result: a period later the voice has moved by a sample or two at most. */
  private lastPeriod = 0;
  /** Whether the last fine search found its best lag at the edge of its range. */
  private atEdge = false;
  /**
   * The last coarse search agreed with the period tracked. Until one does (a voice just caught, a
   * jump), the coarse search runs at its full rate: a wrong octave caught at the start of a voice
   * or across a transition is put right 10 ms later rather than 30.
   */
  private steady = false;

  constructor(history: SampleHistory, sampleRate: number) {
    this.history = history;
    this.factor = Math.round(sampleRate / ANALYSIS_RATE);
    this.minPeriod = Math.floor(sampleRate / MAX_VOICE_HZ);
    this.maxPeriod = Math.ceil(sampleRate / MIN_VOICE_HZ);
    // One lag beyond the range at each end, so a period at either limit can still be a peak.
    this.minLag = Math.floor(ANALYSIS_RATE / MAX_VOICE_HZ) - 1;
    this.maxLag = Math.ceil(ANALYSIS_RATE / MIN_VOICE_HZ) + 1;
    this.coarseRadius = this.factor / 2 + 1;
    this.centredPeriod = Math.ceil(sampleRate / CENTRED_DOWN_TO_HZ);
    this.lookahead = Math.ceil((this.centredPeriod + this.coarseRadius) / 2) + 1;
    this.filtered = new Float32Array(2 * history.length);
    this.decimated = new Float32Array((2 * history.length) / this.factor);
    this.decimatedMask = history.length / this.factor - 1;
    this.correlations = new Float64Array(Math.max(this.maxLag, this.maxPeriod + this.coarseRadius) + 3);
    this.energies = new Float64Array(this.correlations.length);
    this.coarseHop = Math.round(sampleRate * COARSE_HOP_SECONDS);
    this.shortWidth = Math.round(ANALYSIS_RATE * SHORT_WIDTH_SECONDS);
    this.shortLongestLag = Math.ceil(ANALYSIS_RATE / SHORT_LOWEST_HZ);
    this.fineWidth = Math.round(sampleRate * FINE_WIDTH_SECONDS);
    // Butterworth low-pass (bilinear transform, Q = 1/sqrt 2).
    const omega = (2 * Math.PI * DECIMATION_CUTOFF_HZ) / sampleRate;
    const alpha = Math.sin(omega) / Math.SQRT2;
    const cos = Math.cos(omega);
    const a0 = 1 + alpha;
    this.b0 = (1 - cos) / 2 / a0;
    this.b1 = (1 - cos) / a0;
    this.b2 = this.b0;
    this.a1 = (-2 * cos) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  /** Forgets cached results, as when the engine comes back from passing audio through untouched. */
  reset() {
    this.coarseCenter = Number.NEGATIVE_INFINITY;
    this.coarsePeriod = 0;
    this.lastPeriod = 0;
    this.steady = false;
  }

  /** The period in samples (fractional) of the signal just before `center`, or 0 where it is unvoiced. */
  estimate(center: number): number {
    const at = Math.round(center);
    if (Math.abs(at - this.coarseCenter) >= (this.steady ? TRACKING_HOPS * this.coarseHop : this.coarseHop)) {
      this.coarseCenter = at;
      this.steady = this.lastPeriod > 0;
      // As far ahead as the fine search reads, so that a voice that has just started fills more of
      // the window: a voice's first few periods passed on at its own pitch were most of the frames
      // missed on speech (decision 026).
      this.coarsePeriod = this.coarse(Math.min(at + this.lookahead, this.history.written - 1));
    }
    if (this.coarsePeriod === 0) {
      this.lastPeriod = 0;
      this.steady = false;
    } else if (this.lastPeriod > 0 && Math.abs(this.lastPeriod / this.coarsePeriod - 1) < TRACKING_TOLERANCE) {
      const tracked = this.fine(at, this.lastPeriod, TRACKING_RADIUS);
      // The best lag at the edge of the search: the voice moved further, so look wider.
      this.lastPeriod = this.atEdge ? this.fine(at, tracked, this.coarseRadius) : tracked;
    } else {
      this.lastPeriod = this.fine(at, this.coarsePeriod, this.coarseRadius);
      this.steady = false;
    }
    return this.lastPeriod;
  }

  private decimateUpTo(end: number) {
    const { samples, mask } = this.history;
    const { b0, b1, b2, a1, a2, factor, filtered, decimated, decimatedMask } = this;
    const length = mask + 1;
    const decimatedLength = decimatedMask + 1;
    let start = this.filteredUpTo;
    // After a long pass-through only the recent past matters; the filter settles in a few samples.
    const oldestUseful = end - this.history.length / 2;
    if (start < oldestUseful) {
      start = oldestUseful - (oldestUseful % factor);
      this.z1 = 0;
      this.z2 = 0;
    }
    let z1 = this.z1;
    let z2 = this.z2;
    let nextKept = Math.ceil(start / factor) * factor;
    for (let i = start; i < end; i += 1) {
      // Transposed direct form II.
      const x = samples[i & mask]!;
      const y = b0 * x + z1;
      z1 = b1 * x - a1 * y + z2;
      z2 = b2 * x - a2 * y;
      filtered[i & mask] = y;
      filtered[(i & mask) + length] = y;
      if (i === nextKept) {
        const at = (i / factor) & decimatedMask;
        decimated[at] = y;
        decimated[at + decimatedLength] = y;
        nextKept += factor;
      }
    }
    this.z1 = z1;
    this.z2 = z2;
    this.filteredUpTo = Math.max(this.filteredUpTo, end);
  }

  /**
   * Period at the full rate from the decimated signal ending at `newest`, or 0. While nothing is
   * tracked, a high voice that the window of the longest lag does not yet find is looked for on a
   * short window too, which it fills a few periods after it starts.
   */
  private coarse(newest: number): number {
    this.decimateUpTo(Math.min(newest + 1, this.history.written));
    const period = this.coarseOver(newest, this.maxLag, this.maxLag);
    if (period > 0 || this.lastPeriod > 0) return period;
    return this.coarseOver(newest, this.shortWidth, this.shortLongestLag);
  }

  /** The coarse search over `width` decimated samples ending at `newest`, for lags up to `longestLag`. */
  private coarseOver(newest: number, width: number, longestLag: number): number {
    const { minLag, correlations: r } = this;
    // x[oldest] is the oldest sample read: the one entering the window of the longest lag after it.
    const x = this.decimated;
    const oldest = (Math.floor(newest / this.factor) - width - longestLag - 1) & this.decimatedMask;
    const end = oldest + width + longestLag + 1;
    const bStart = end - width;
    let energyB = 0;
    for (let i = bStart; i < end; i += 1) energyB += x[i]! * x[i]!;
    if (energyB < SILENT_POWER * width) return 0;
    let energyA = 0;
    for (let i = bStart - minLag; i < end - minLag; i += 1) energyA += x[i]! * x[i]!;
    const energies = this.energies;
    for (let lag = minLag; lag <= longestLag; lag += 1) {
      energies[lag] = energyA;
      const leaving = x[end - lag - 1]!;
      const entering = x[bStart - lag - 1]!;
      energyA += entering * entering - leaving * leaving;
    }
    dotProducts(x, bStart, minLag, longestLag, width, r);
    let best = -1;
    for (let lag = minLag; lag <= longestLag; lag += 1) {
      const value = (2 * r[lag]!) / (energies[lag]! + energyB + 1e-12);
      r[lag] = value;
      if (value > best) best = value;
    }
    if (best < VOICED_CORRELATION) return 0;
    let bestLag = minLag;
    while (r[bestLag]! < best) bestLag += 1;
    // A high voice's period falls between two lags of the coarse grid, where its peak can look a
    // third lower than it is, and a creaky voice's ringing can look higher than it is; the peaks
    // are compared at their height at the full rate instead.
    const fullWidth = width * this.factor;
    const threshold = SUBHARMONIC_TOLERANCE * this.fullRatePeak(newest, bestLag, fullWidth);
    let chosen = bestLag;
    for (let lag = minLag + 1; lag < bestLag; lag += 1) {
      const value = r[lag]!;
      if (value >= CANDIDATE_PEAK * best && value >= r[lag - 1]! && value >= r[lag + 1]! && this.fullRatePeak(newest, lag, fullWidth) >= threshold) {
        chosen = lag;
        break;
      }
    }
    if (chosen <= minLag || chosen >= longestLag) return 0;
    return (chosen + parabolicOffset(r[chosen - 1]!, r[chosen]!, r[chosen + 1]!)) * this.factor;
  }

  /** The highest normalised correlation at the full rate within reach of coarse lag `lag`, over `width` samples ending at `newest`. */
  private fullRatePeak(newest: number, lag: number, width: number): number {
    const middle = lag * this.factor;
    const longest = middle + this.coarseRadius;
    const x = this.filtered;
    const oldest = (newest - width - longest) & this.history.mask;
    const end = oldest + width + longest;
    const bStart = oldest + longest;
    let energyB = 0;
    for (let i = bStart; i < end; i += 1) energyB += x[i]! * x[i]!;
    const shortest = Math.max(this.minPeriod, middle - this.coarseRadius);
    // The lowest coarse lag reaches no period the tracker reports; measuring it would read before
    // the stretch, at the ring's start before the array. Every read stays inside the array: a
    // single read out of bounds makes V8 compile the correlation loops to box each partial sum, a
    // tenth to a fifth of the engine's time.
    if (shortest > longest) return 0;
    const energies = this.energies;
    let energyA = 0;
    for (let i = bStart - shortest; i < end - shortest; i += 1) energyA += x[i]! * x[i]!;
    energies[shortest] = energyA;
    for (let full = shortest + 1; full <= longest; full += 1) {
      const leaving = x[end - full]!;
      const entering = x[bStart - full]!;
      energyA += entering * entering - leaving * leaving;
      energies[full] = energyA;
    }
    // Low-passed at 1 kHz, the correlation has a single peak within these few samples: climb to it.
    let full = Math.max(shortest, Math.min(longest, middle));
    let best = correlation(x, bStart, full, width, energies[full]! + energyB);
    const later = full < longest ? correlation(x, bStart, full + 1, width, energies[full + 1]! + energyB) : -1;
    const step = later > best ? 1 : -1;
    if (step > 0) {
      best = later;
      full += 1;
    }
    while (full + step >= shortest && full + step <= longest) {
      const next = correlation(x, bStart, full + step, width, energies[full + step]! + energyB);
      if (next <= best) break;
      best = next;
      full += step;
    }
    return best;
  }

  /** Refines `guess` on the full-rate signal; the two compared periods end `guess / 2` after `center`. */
  private fine(center: number, guess: number, radius: number): number {
    const { correlations: r, minPeriod, maxPeriod } = this;
    const rounded = Math.round(guess);
    const low = Math.max(minPeriod, rounded - radius);
    const high = Math.min(maxPeriod, rounded + radius);
    if (low > high) return 0;
    // A high voice's period is too short to measure alone: its jitter would become the output's.
    const width = Math.max(rounded, this.fineWidth);
    const newest = Math.min(center + Math.ceil(width / 2), center + this.lookahead, this.history.written);
    this.decimateUpTo(newest);
    const x = this.filtered;
    const oldest = (newest - width - high - 2) & this.history.mask;
    const end = oldest + width + high + 2;
    const bStart = oldest + high + 2;
    let energyB = 0;
    for (let i = bStart; i < end; i += 1) energyB += x[i]! * x[i]!;
    let energyA = 0;
    for (let i = bStart - (low - 1); i < end - (low - 1); i += 1) energyA += x[i]! * x[i]!;
    const energies = this.energies;
    for (let lag = low - 1; lag <= high + 1; lag += 1) {
      energies[lag] = energyA;
      const leaving = x[end - lag - 1]!;
      const entering = x[bStart - lag - 1]!;
      energyA += entering * entering - leaving * leaving;
    }
    dotProducts(x, bStart, low, high, width, r);
    let best = -1;
    let bestLag = low;
    for (let lag = low; lag <= high; lag += 1) {
      const value = (2 * r[lag]!) / (energies[lag]! + energyB + 1e-12);
      r[lag] = value;
      if (value > best) {
        best = value;
        bestLag = lag;
      }
    }
    if (best < VOICED_CORRELATION) return 0;
    // The lags either side of the range only shape the parabola through a best lag at its edge.
    if (bestLag === low) r[low - 1] = correlation(x, bStart, low - 1, width, energies[low - 1]! + energyB);
    if (bestLag === high) r[high + 1] = correlation(x, bStart, high + 1, width, energies[high + 1]! + energyB);
    this.atEdge = (bestLag === low && low > minPeriod) || (bestLag === high && high < maxPeriod);
    const period = bestLag + parabolicOffset(r[bestLag - 1]!, r[bestLag]!, r[bestLag + 1]!);
    return Math.min(maxPeriod, Math.max(minPeriod, period));
  }
}

/**
 * `out[lag]` = the sum of `x[bStart + i - lag] * x[bStart + i]` over `width` samples, for each lag
 * from `low` to `high`. Five lags share a pass over the stretch, each sample read once for the five
 * and handed down from lag to lag (the fine search's usual five lags take one pass): the searches'
 * correlations are about half the engine's time.
 */
function dotProducts(x: Float32Array, bStart: number, low: number, high: number, width: number, out: Float64Array) {
  let lag = low;
  for (; lag + 4 <= high; lag += 5) {
    const aStart = bStart - lag;
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    let c4 = 0;
    let a1 = x[aStart - 1]!;
    let a2 = x[aStart - 2]!;
    let a3 = x[aStart - 3]!;
    let a4 = x[aStart - 4]!;
    for (let i = 0; i < width; i += 1) {
      const a0 = x[aStart + i]!;
      const b = x[bStart + i]!;
      c0 += a0 * b;
      c1 += a1 * b;
      c2 += a2 * b;
      c3 += a3 * b;
      c4 += a4 * b;
      a4 = a3;
      a3 = a2;
      a2 = a1;
      a1 = a0;
    }
    out[lag] = c0;
    out[lag + 1] = c1;
    out[lag + 2] = c2;
    out[lag + 3] = c3;
    out[lag + 4] = c4;
  }
  for (; lag <= high; lag += 1) out[lag] = dotProduct(x, bStart, lag, width);
}

/** Normalised correlation of `x[bStart..bStart + width)` with the stretch `lag` earlier, given both energies summed. */
function correlation(x: Float32Array, bStart: number, lag: number, width: number, energy: number): number {
  return (2 * dotProduct(x, bStart, lag, width)) / (energy + 1e-12);
}

/** The sum of `x[bStart + i - lag] * x[bStart + i]` over `width` samples. */
function dotProduct(x: Float32Array, bStart: number, lag: number, width: number): number {
  const aStart = bStart - lag;
  // Four sums, so that each addition need not wait for the one before.
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let i = 0;
  for (; i + 3 < width; i += 4) {
    c0 += x[aStart + i]! * x[bStart + i]!;
    c1 += x[aStart + i + 1]! * x[bStart + i + 1]!;
    c2 += x[aStart + i + 2]! * x[bStart + i + 2]!;
    c3 += x[aStart + i + 3]! * x[bStart + i + 3]!;
  }
  for (; i < width; i += 1) c0 += x[aStart + i]! * x[bStart + i]!;
  return c0 + c1 + c2 + c3;
}

/** Where the peak of a parabola through three equally spaced values lies, from -0.5 to 0.5. */
function parabolicOffset(before: number, at: number, after: number): number {
  const curvature = before - 2 * at + after;
  if (curvature >= 0) return 0;
  const offset = (0.5 * (before - after)) / curvature;
  return Math.max(-0.5, Math.min(0.5, offset));
}
