/**
 * The tone of a voice character: a low shelf, two peaks and a high shelf at fixed frequencies
 * (RBJ cookbook biquads). A change of gains glides over a set number of samples, recomputing the
 * coefficients every 32, so it never clicks; all gains at 0 dB bypass the filters exactly.
 */

export interface EqualizerGains {
  /** Shelf below 250 Hz: body. */
  lowDb: number;
  /** Peak at 800 Hz: nasality, honk. */
  midDb: number;
  /** Peak at 2 kHz: presence, clarity. */
  presenceDb: number;
  /** Shelf above 3.2 kHz: brightness, air. */
  highDb: number;
}

const BANDS = 4;
const fround = Math.fround;
const STEP = 32;
const LOW_SHELF_HZ = 250;
const MID_HZ = 800;
const PRESENCE_HZ = 2000;
const HIGH_SHELF_HZ = 3200;
const PEAK_Q = 1;

export class VoiceEqualizer {
  private readonly sampleRate: number;
  private readonly glideSamples: number;
  private readonly from = new Float64Array(BANDS);
  private readonly to = new Float64Array(BANDS);
  private readonly current = new Float64Array(BANDS);
  /** b0 b1 b2 a1 a2 per band, normalised by a0. */
  private readonly coefficients = new Float64Array(BANDS * 5);
  /** Transposed direct form II state, two per band. */
  private readonly state = new Float64Array(BANDS * 2);
  private glided = 0;

  constructor(sampleRate: number, glideSamples: number) {
    this.sampleRate = sampleRate;
    this.glideSamples = glideSamples;
    this.glided = glideSamples;
    this.design();
  }

  setGains(gains: EqualizerGains) {
    const { to } = this;
    if (to[0] === gains.lowDb && to[1] === gains.midDb && to[2] === gains.presenceDb && to[3] === gains.highDb) return;
    this.from.set(this.current);
    to[0] = gains.lowDb;
    to[1] = gains.midDb;
    to[2] = gains.presenceDb;
    to[3] = gains.highDb;
    this.glided = 0;
  }

  /** Jumps to the target gains and clears the filters, for a fresh start. */
  reset() {
    this.current.set(this.to);
    this.from.set(this.to);
    this.glided = this.glideSamples;
    this.state.fill(0);
    this.design();
  }

  process(buffer: Float32Array, count: number) {
    if (this.glided >= this.glideSamples && this.isFlat()) return;
    for (let start = 0; start < count; start += STEP) {
      if (this.glided < this.glideSamples) {
        this.glided = Math.min(this.glideSamples, this.glided + STEP);
        const progress = this.glided / this.glideSamples;
        for (let band = 0; band < BANDS; band += 1) this.current[band] = this.from[band]! + (this.to[band]! - this.from[band]!) * progress;
        this.design();
        if (this.glided >= this.glideSamples && this.isFlat()) this.state.fill(0);
      }
      this.filter(buffer, start, Math.min(count, start + STEP));
    }
  }

  private isFlat(): boolean {
    const { current } = this;
    return current[0] === 0 && current[1] === 0 && current[2] === 0 && current[3] === 0;
  }

  private filter(buffer: Float32Array, start: number, end: number) {
    this.filterPair(buffer, start, end, 0);
    this.filterPair(buffer, start, end, 1);
  }

  /**
   * Bands `2 * pair` and the next in one pass, their coefficients and state in locals: a pass per
   * band loaded and stored the block once a band. The first band's output is rounded to single
   * precision, as storing it between them did.
   */
  private filterPair(buffer: Float32Array, start: number, end: number, pair: number) {
    const { coefficients: c, state } = this;
    const o = pair * 10;
    const s = pair * 4;
    const b0 = c[o]!;
    const b1 = c[o + 1]!;
    const b2 = c[o + 2]!;
    const a1 = c[o + 3]!;
    const a2 = c[o + 4]!;
    const d0 = c[o + 5]!;
    const d1 = c[o + 6]!;
    const d2 = c[o + 7]!;
    const e1 = c[o + 8]!;
    const e2 = c[o + 9]!;
    let u1 = state[s]!;
    let u2 = state[s + 1]!;
    let v1 = state[s + 2]!;
    let v2 = state[s + 3]!;
    for (let i = start; i < end; i += 1) {
      const x = buffer[i]!;
      const first = b0 * x + u1;
      u1 = b1 * x - a1 * first + u2;
      u2 = b2 * x - a2 * first;
      const between = fround(first);
      const second = d0 * between + v1;
      v1 = d1 * between - e1 * second + v2;
      v2 = d2 * between - e2 * second;
      buffer[i] = second;
    }
    state[s] = u1;
    state[s + 1] = u2;
    state[s + 2] = v1;
    state[s + 3] = v2;
  }

  private design() {
    const { current, sampleRate } = this;
    this.shelf(0, LOW_SHELF_HZ, current[0]!, sampleRate, false);
    this.peak(1, MID_HZ, current[1]!, sampleRate);
    this.peak(2, PRESENCE_HZ, current[2]!, sampleRate);
    this.shelf(3, HIGH_SHELF_HZ, current[3]!, sampleRate, true);
  }

  private peak(band: number, hz: number, db: number, sampleRate: number) {
    const a = 10 ** (db / 40);
    const omega = (2 * Math.PI * hz) / sampleRate;
    const alpha = Math.sin(omega) / (2 * PEAK_Q);
    const cos = Math.cos(omega);
    this.store(band, 1 + alpha * a, -2 * cos, 1 - alpha * a, 1 + alpha / a, -2 * cos, 1 - alpha / a);
  }

  /** Shelf slope 1: the steepest without a bump. */
  private shelf(band: number, hz: number, db: number, sampleRate: number, high: boolean) {
    const a = 10 ** (db / 40);
    const omega = (2 * Math.PI * hz) / sampleRate;
    const cos = Math.cos(omega);
    const root = 2 * Math.sqrt(a) * (Math.sin(omega) / Math.SQRT2);
    const sign = high ? -1 : 1;
    this.store(
      band,
      a * (a + 1 - sign * (a - 1) * cos + root),
      sign * 2 * a * (a - 1 - sign * (a + 1) * cos),
      a * (a + 1 - sign * (a - 1) * cos - root),
      a + 1 + sign * (a - 1) * cos + root,
      -sign * 2 * (a - 1 + sign * (a + 1) * cos),
      a + 1 + sign * (a - 1) * cos - root,
    );
  }

  private store(band: number, b0: number, b1: number, b2: number, a0: number, a1: number, a2: number) {
    const o = band * 5;
    const c = this.coefficients;
    c[o] = b0 / a0;
    c[o + 1] = b1 / a0;
    c[o + 2] = b2 / a0;
    c[o + 3] = a1 / a0;
    c[o + 4] = a2 / a0;
  }
}
