/** Streaming sample-rate conversion by windowed-sinc interpolation, for call audio in both directions. */

const PHASES = 256;

function buildKernel(halfTaps: number, cutoff: number): Float32Array {
  const taps = halfTaps * 2;
  const table = new Float32Array((PHASES + 1) * taps);
  for (let phase = 0; phase <= PHASES; phase += 1) {
    const fraction = phase / PHASES;
    let sum = 0;
    for (let tap = 0; tap < taps; tap += 1) {
      // Distance from the output instant to input sample (floor(position) - halfTaps + 1 + tap).
      const distance = tap - halfTaps + 1 - fraction;
      const x = Math.PI * cutoff * distance;
      const sinc = distance === 0 ? 1 : Math.sin(x) / x;
      const window = Math.abs(distance) >= halfTaps ? 0 : 0.5 * (1 + Math.cos((Math.PI * distance) / halfTaps));
      const value = cutoff * sinc * window;
      table[phase * taps + tap] = value;
      sum += value;
    }
    // Normalise each phase to unity gain at DC so a steady signal keeps its level exactly.
    for (let tap = 0; tap < taps; tap += 1) table[phase * taps + tap]! /= sum;
  }
  return table;
}

export class StreamingResampler {
  readonly inputRate: number;
  readonly outputRate: number;
  private readonly step: number;
  private readonly halfTaps: number;
  private readonly taps: number;
  private readonly kernel: Float32Array;
  private buffer: Float32Array;
  private length: number;
  /** Where the next output sample falls, in input samples from buffer[0]. */
  private position: number;

  constructor(inputRate: number, outputRate: number, halfTaps = 16) {
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.step = inputRate / outputRate;
    this.halfTaps = halfTaps;
    this.taps = halfTaps * 2;
    // Downsampling must first remove what the lower rate cannot carry; a little margin below Nyquist.
    this.kernel = buildKernel(halfTaps, Math.min(1, outputRate / inputRate) * 0.92);
    this.buffer = new Float32Array(4096);
    // Start with a history of silence so the first samples have full support on the left.
    this.length = halfTaps;
    this.position = halfTaps - 1;
  }

  /** Output samples produced per input sample, on average. */
  get ratio(): number {
    return this.outputRate / this.inputRate;
  }

  /** The most output samples `process` can write for `inputLength` input samples. */
  maxOutput(inputLength: number): number {
    return Math.ceil((this.length + inputLength) / this.step) + 2;
  }

  /** Converts `input`, writing into `output`; returns how many samples were written. */
  process(input: Float32Array, output: Float32Array): number {
    this.append(input);
    const { kernel, taps, halfTaps, step } = this;
    let written = 0;
    while (written < output.length) {
      const base = Math.floor(this.position);
      if (base + halfTaps >= this.length) break;
      const phase = Math.round((this.position - base) * PHASES);
      const kernelOffset = phase * taps;
      const first = base - halfTaps + 1;
      let sum = 0;
      for (let tap = 0; tap < taps; tap += 1) sum += this.buffer[first + tap]! * kernel[kernelOffset + tap]!;
      output[written] = sum;
      written += 1;
      this.position += step;
    }
    this.discardConsumed();
    return written;
  }

  private append(input: Float32Array) {
    if (this.length + input.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.length + input.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(input, this.length);
    this.length += input.length;
  }

  private discardConsumed() {
    const keepFrom = Math.max(0, Math.floor(this.position) - this.halfTaps + 1);
    if (keepFrom === 0) return;
    this.buffer.copyWithin(0, keepFrom, this.length);
    this.length -= keepFrom;
    this.position -= keepFrom;
  }
}
