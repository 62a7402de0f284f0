/**
 * The last stage: a peak limiter with instant attack and a 50 ms release, so effects that add gain
 * (make-up gain, a boosted band, overlapping grains) never reach full scale, then 16-bit rounding.
 * The gain is computed from the sample itself, so no sample passes the ceiling and no look-ahead
 * delay is needed; below the ceiling the signal is untouched.
 */

/** About -0.45 dBFS. */
const CEILING = 0.95;
const RELEASE_SECONDS = 0.05;

export class OutputLimiter {
  private readonly release: number;
  private envelope = 0;

  constructor(sampleRate: number) {
    this.release = Math.exp(-1 / (sampleRate * RELEASE_SECONDS));
  }

  reset() {
    this.envelope = 0;
  }

  /** Writes `input[0..count)` as 16-bit samples into `output[offset..offset + count)`. */
  toInt16(input: Float32Array, count: number, output: Int16Array, offset = 0) {
    let i = 0;
    // While the envelope is below the ceiling its exact value cannot matter: the next sample above
    // the ceiling resets it. Until such a sample, the limiter only rounds.
    if (this.envelope <= CEILING) {
      for (; i < count; i += 1) {
        const value = input[i]!;
        if (value > CEILING || value < -CEILING) break;
        // Math.round within the ceiling, without the call: the sum is positive, so `| 0` floors it.
        output[offset + i] = ((value * 32768 + 32768.5) | 0) - 32768;
      }
      if (i === count) return;
      this.envelope = 0;
    }
    let envelope = this.envelope;
    const release = this.release;
    for (; i < count; i += 1) {
      const value = input[i]!;
      const level = value < 0 ? -value : value;
      envelope = level > envelope * release ? level : envelope * release;
      const limited = envelope > CEILING ? (value * CEILING) / envelope : value;
      output[offset + i] = Math.round(limited * 32768);
    }
    this.envelope = envelope;
  }
}
