import { PitchTracker } from './pitch-tracker';
import type { SampleHistory } from './sample-history';

/**
 * TD-PSOLA: the input is cut into grains two pitch periods long, centred on marks one period apart
 * (found by the pitch tracker), and the grains are added back with a new spacing. The spacing sets
 * the pitch, the time mapping from output to input sets the tempo, and reading a grain faster or
 * slower moves its formants. Steady voiced input comes out exactly periodic, so the harmonics stay
 * clean; unvoiced input is re-laid in short grains without a pitch change.
 *
 * Output is rendered one block at a time, each grain only where it overlaps the block, so a grain
 * never needs input later than the block's own end; this is what keeps the delay near two periods.
 */

/** How far formants may move: beyond this a voice stops sounding human. */
export const MIN_FORMANT = 0.9;
export const MAX_FORMANT = 1.12;
/** Pitch (the user's times the character's), kept where grains still overlap sensibly. */
const MIN_GRAIN_PITCH = 0.4;
const MAX_GRAIN_PITCH = 2.5;
const UNVOICED_SPACING_SECONDS = 0.005;
/** A lowered pitch leaves gaps between grains; this much make-up gain at most. */
const MAX_GAP_GAIN = 1.6;
/** Grains still sounding at the end of a block: two overlap at any instant, three at a boundary. */
const GRAIN_CAPACITY = 8;
const WINDOW_STEPS = 1024;

/** Falling half of a Hann window from 1 at 0 to 0 at 1; two mirrored halves add up to exactly 1. */
const HALF_WINDOW = (() => {
  const table = new Float64Array(WINDOW_STEPS + 2);
  for (let i = 0; i <= WINDOW_STEPS; i += 1) table[i] = 0.5 * (1 + Math.cos((Math.PI * i) / WINDOW_STEPS));
  return table;
})();

export interface GrainTempo {
  /** Input samples to advance per output sample while placing the grain at `synthesisTime`. */
  tempoForGrain(analysisTime: number, synthesisTime: number, spacing: number): number;
}

export interface ShiftShape {
  pitch: number;
  formant: number;
}

export class PitchSynchronousShifter {
  /** The smallest constant delay from input to output that a live stream can run with. */
  readonly liveDelay: number;
  /** The longest pitch period tracked; a grain may sound up to half of it early or late. */
  readonly maxPeriod: number;
  tempo: GrainTempo;

  private readonly history: SampleHistory;
  /** Where the pitch marks are found: the input the grains are cut from, unless a measure says otherwise. */
  private readonly marks: SampleHistory;
  private readonly tracker: PitchTracker;
  private readonly unvoicedSpacing: number;
  private pitch = 1;
  private formant = 1;

  private outputTime = 0;
  private nextCenter = 0;
  private nextLeft = 0;
  private tau = 0;
  private markPosition = 0;
  private markPeriod = 0;

  private readonly grainCenter = new Float64Array(GRAIN_CAPACITY);
  private readonly grainLeft = new Float64Array(GRAIN_CAPACITY);
  private readonly grainRight = new Float64Array(GRAIN_CAPACITY);
  private readonly grainSource = new Float64Array(GRAIN_CAPACITY);
  private readonly grainRate = new Float64Array(GRAIN_CAPACITY);
  private readonly grainGain = new Float64Array(GRAIN_CAPACITY);
  private grainCount = 0;

  constructor(history: SampleHistory, sampleRate: number, tempo: GrainTempo, marks: SampleHistory = history) {
    this.history = history;
    this.marks = marks;
    this.tempo = tempo;
    this.tracker = new PitchTracker(marks, sampleRate);
    this.maxPeriod = this.tracker.maxPeriod;
    this.unvoicedSpacing = Math.round(sampleRate * UNVOICED_SPACING_SECONDS);
    // A grain is placed when its left half (at most a period) reaches the block being rendered; its
    // mark may lie half a period after the mapped time, and the tracker reads past the mark. Sized
    // for the periods the tracker centres its window on: for longer ones it reads less ahead.
    const period = this.tracker.centredPeriod;
    this.liveDelay = period + Math.ceil(period / 2) + this.tracker.lookahead + 2;
  }

  setShape(shape: ShiftShape) {
    this.pitch = Math.min(MAX_GRAIN_PITCH, Math.max(MIN_GRAIN_PITCH, shape.pitch));
    this.formant = Math.min(MAX_FORMANT, Math.max(MIN_FORMANT, shape.formant));
  }

  /** Starts afresh: output sample `outputStart` is rendered next, from input near `analysisStart`. */
  reset(outputStart: number, analysisStart: number) {
    this.tracker.reset();
    this.outputTime = outputStart;
    this.nextCenter = outputStart;
    this.nextLeft = 0;
    this.tau = analysisStart;
    this.markPosition = analysisStart;
    this.markPeriod = this.tracker.estimate(analysisStart);
    if (this.markPeriod > 0) this.markPosition = this.strongestPeak(analysisStart, this.markPeriod);
    this.grainCount = 0;
  }

  /** The input time that the next grain is mapped to: the input rendered so far ends about here. */
  get analysisTime(): number {
    return this.tau;
  }

  /** The delay from input to output at the next grain, in samples. */
  get delay(): number {
    return this.nextCenter - this.tau;
  }

  /**
   * How much input `render(count)` may read when the tempo stays at `tempo`, for callers that hold
   * the whole input and feed it ahead (a live stream is kept safe by `liveDelay` instead).
   */
  inputNeeded(count: number, tempo: number): number {
    const widestSpacing = this.maxPeriod / MIN_GRAIN_PITCH;
    return Math.ceil(this.tau + (count + 2 * widestSpacing) * tempo + this.maxPeriod + this.tracker.lookahead) + 4;
  }

  /** Renders the next `count` output samples into `out[0..count)`. */
  render(out: Float32Array, count: number) {
    out.fill(0, 0, count);
    const start = this.outputTime;
    const end = start + count;
    let kept = 0;
    for (let k = 0; k < this.grainCount; k += 1) {
      this.renderGrain(k, out, start, end);
      if (this.grainCenter[k]! + this.grainRight[k]! > end) {
        this.moveGrain(k, kept);
        kept += 1;
      }
    }
    this.grainCount = kept;
    while (this.nextCenter - this.nextLeft < end) {
      const k = this.grainCount;
      this.placeGrain(k);
      this.renderGrain(k, out, start, end);
      if (this.grainCenter[k]! + this.grainRight[k]! > end) this.grainCount += 1;
    }
    this.outputTime = end;
  }

  private placeGrain(k: number) {
    this.advanceMarks();
    const period = this.markPeriod;
    let spacing: number;
    let half: number;
    if (period > 0) {
      spacing = period / this.pitch;
      // Wider than a period the grain would carry the old pitch along; wider than the spacing, it
      // would no longer add up to a flat envelope with its neighbours.
      half = Math.min(spacing, period, period / this.formant);
    } else {
      spacing = this.unvoicedSpacing;
      half = spacing;
    }
    this.grainCenter[k] = this.nextCenter;
    this.grainLeft[k] = this.nextLeft;
    this.grainRight[k] = half;
    this.grainSource[k] = this.markPosition;
    this.grainRate[k] = this.formant;
    this.grainGain[k] = half < spacing ? Math.min(MAX_GAP_GAIN, Math.sqrt(spacing / half)) : 1;
    const tempo = this.tempo.tempoForGrain(this.tau, this.nextCenter, spacing);
    this.nextCenter += spacing;
    this.tau += spacing * tempo;
    this.nextLeft = half;
  }

  /** Moves to the analysis mark nearest the mapped input time; marks are one period apart. */
  private advanceMarks() {
    const tau = this.tau;
    for (;;) {
      const step = this.markPeriod > 0 ? this.markPeriod : this.unvoicedSpacing;
      const next = this.markPosition + step;
      if (next - tau > tau - this.markPosition) return;
      const period = this.tracker.estimate(next);
      this.markPosition = this.markPeriod === 0 && period > 0 ? this.strongestPeak(next, period) : next;
      this.markPeriod = period;
    }
  }

  /**
   * Where voicing starts, the mark moves back to the strongest peak of the last period, as PSOLA
   * centres grains on the pitch pulses: the following marks, a period apart, then stay on them.
   */
  private strongestPeak(at: number, period: number): number {
    const { samples: x, mask } = this.marks;
    const end = Math.floor(at);
    let best = end;
    let bestLevel = -1;
    for (let i = end - Math.floor(period) + 1; i <= end; i += 1) {
      const level = Math.abs(x[i & mask]!);
      if (level > bestLevel) {
        bestLevel = level;
        best = i;
      }
    }
    return best;
  }

  private moveGrain(from: number, to: number) {
    if (from === to) return;
    this.grainCenter[to] = this.grainCenter[from]!;
    this.grainLeft[to] = this.grainLeft[from]!;
    this.grainRight[to] = this.grainRight[from]!;
    this.grainSource[to] = this.grainSource[from]!;
    this.grainRate[to] = this.grainRate[from]!;
    this.grainGain[to] = this.grainGain[from]!;
  }

  /** Adds grain `k`'s part in output samples [start, end) to `out`. */
  private renderGrain(k: number, out: Float32Array, start: number, end: number) {
    const center = this.grainCenter[k]!;
    const left = this.grainLeft[k]!;
    const right = this.grainRight[k]!;
    // The window is 0 at both edges, so the edge samples themselves are left out.
    const first = Math.max(start, left > 0 ? Math.floor(center - left) + 1 : Math.ceil(center));
    const middle = Math.max(first, Math.min(end, Math.ceil(center)));
    const last = Math.min(end, Math.ceil(center + right));
    if (first >= last) return;
    if (first < middle) this.renderHalf(k, out, start, first, middle, -WINDOW_STEPS / left);
    if (middle < last) this.renderHalf(k, out, start, middle, last, WINDOW_STEPS / right);
  }

  /** One half of grain `k` over output samples [from, to); `scale` turns time from the centre into a window index. */
  private renderHalf(k: number, out: Float32Array, start: number, from: number, to: number, scale: number) {
    const center = this.grainCenter[k]!;
    const source = this.grainSource[k]!;
    const rate = this.grainRate[k]!;
    const gain = this.grainGain[k]!;
    const { samples: x, mask } = this.history;
    const window = HALF_WINDOW;
    let w = (from - center) * scale;
    if (rate === 1) {
      // The read position keeps one fraction through the grain: the interpolator is fixed.
      const offset = source - center;
      const whole = Math.floor(offset);
      const t = offset - whole;
      const cm = (gain * (-t * (t - 1) * (t - 2))) / 6;
      const c0 = (gain * ((t + 1) * (t - 1) * (t - 2))) / 2;
      const c1 = (gain * (-(t + 1) * t * (t - 2))) / 2;
      const c2 = (gain * ((t + 1) * t * (t - 1))) / 6;
      for (let n = from; n < to; n += 1) {
        const wi = w | 0;
        const weight = window[wi]! + (window[wi + 1]! - window[wi]!) * (w - wi);
        const i = n + whole;
        out[n - start]! += weight * (cm * x[(i - 1) & mask]! + c0 * x[i & mask]! + c1 * x[(i + 1) & mask]! + c2 * x[(i + 2) & mask]!);
        w += scale;
      }
      return;
    }
    let position = source + (from - center) * rate;
    for (let n = from; n < to; n += 1) {
      const wi = w | 0;
      const weight = window[wi]! + (window[wi + 1]! - window[wi]!) * (w - wi);
      const i = Math.floor(position);
      const t = position - i;
      const value =
        ((-t * (t - 1) * (t - 2)) / 6) * x[(i - 1) & mask]! +
        (((t + 1) * (t - 1) * (t - 2)) / 2) * x[i & mask]! +
        ((-(t + 1) * t * (t - 2)) / 2) * x[(i + 1) & mask]! +
        (((t + 1) * t * (t - 1)) / 6) * x[(i + 2) & mask]!;
      out[n - start]! += gain * weight * value;
      w += scale;
      position += rate;
    }
  }
}
