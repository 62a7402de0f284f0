import type { SampleHistory } from './sample-history';

/**
 * Keeps the changed voice as loud as the input. Overlap-add moves the level a little with the pitch
 * (a lowered pitch leaves gaps between grains, a raised one narrows them around the pitch pulses:
 * up to 2 dB on speech), and the characters' equalisers move it by design; a listener hears either
 * as the voice getting quieter or louder, not as a change of voice. The input's and the output's
 * power are followed over the same stretch of speech (the input that each block of output was made
 * from), slowly enough to leave syllables their own loudness, and the output is scaled by the ratio.
 */

const TIME_CONSTANT_SECONDS = 0.15;
/** About -60 dBFS: below this, silence and near-silence are left as they are. */
const POWER_FLOOR = 1e-6;
const MIN_GAIN = 0.5;
const MAX_GAIN = 2;

export class LoudnessKeeper {
  private readonly samplesPerTimeConstant: number;
  private inputPower = 0;
  private outputPower = 0;
  private gain = 1;

  constructor(sampleRate: number) {
    this.samplesPerTimeConstant = sampleRate * TIME_CONSTANT_SECONDS;
  }

  reset() {
    this.inputPower = 0;
    this.outputPower = 0;
    this.gain = 1;
  }

  /** Scales `block[0..count)`, made from input samples `from` to `to` of `history`, gliding the gain across it. */
  process(block: Float32Array, count: number, history: SampleHistory, from: number, to: number) {
    const { samples, mask } = history;
    const start = Math.floor(from);
    const end = Math.floor(to);
    // A lowered pitch places a grain (and moves through the input) less often than once a block:
    // each power follows the stretch it was measured over, and an input stretch of nothing leaves it.
    if (end > start) {
      let input = 0;
      for (let i = start; i < end; i += 1) input += samples[i & mask]! * samples[i & mask]!;
      this.inputPower += (input / (end - start) - this.inputPower) * (1 - Math.exp(-(end - start) / this.samplesPerTimeConstant));
    }
    let output = 0;
    for (let i = 0; i < count; i += 1) output += block[i]! * block[i]!;
    this.outputPower += (output / count - this.outputPower) * (1 - Math.exp(-count / this.samplesPerTimeConstant));
    const target = Math.min(MAX_GAIN, Math.max(MIN_GAIN, Math.sqrt((this.inputPower + POWER_FLOOR) / (this.outputPower + POWER_FLOOR))));
    const step = (target - this.gain) / count;
    let gain = this.gain;
    for (let i = 0; i < count; i += 1) {
      gain += step;
      block[i]! *= gain;
    }
    this.gain = target;
  }
}
