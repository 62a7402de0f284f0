/** The recent input of a voice engine: a ring of samples addressed by their absolute index in the stream. */

const INT16_SCALE = 1 / 32768;

export class SampleHistory {
  readonly samples: Float32Array;
  readonly mask: number;
  /** Samples written so far: the newest has index `written - 1`. */
  written = 0;

  constructor(minimumLength: number) {
    let size = 1;
    while (size < minimumLength) size *= 2;
    this.samples = new Float32Array(size);
    this.mask = size - 1;
  }

  get length(): number {
    return this.samples.length;
  }

  /** Appends `source[start..end)`, or `count` samples of silence where the source has run out. */
  writeInt16(source: Int16Array, start = 0, end = source.length, count = end - start) {
    const { samples, mask } = this;
    const index = this.written;
    const copied = Math.max(0, Math.min(count, end - start));
    for (let i = 0; i < copied; i += 1) samples[(index + i) & mask] = source[start + i]! * INT16_SCALE;
    for (let i = copied; i < count; i += 1) samples[(index + i) & mask] = 0;
    this.written = index + count;
  }
}
