/**
 * Quality measures of a changed voice, for the tests and bench/voice.
 *
 * Harmonics-to-noise ratio: the energy within ±10 Hz (at least ±5 bins, the window's main lobe)
 * of each multiple of the expected fundamental, against the energy of every other bin above that
 * band around 0 Hz, in dB; one Blackman-Harris-windowed FFT over the largest power-of-two length
 * that fits. A perfectly periodic signal at the expected pitch scores over 90 dB; white noise
 * scores about -10 dB at 225 Hz (the bands cover a tenth of the spectrum).
 */

const BAND_HZ = 10;
const MIN_BAND_BINS = 5;

export function harmonicsToNoiseRatio(samples: ArrayLike<number>, sampleRate: number, fundamentalHz: number): number {
  let size = 1;
  while (size * 2 <= samples.length) size *= 2;
  const power = powerSpectrum(samples, size);
  const binHz = sampleRate / size;
  const bandBins = Math.max(MIN_BAND_BINS, Math.ceil(BAND_HZ / binHz));
  let harmonic = 0;
  let noise = 0;
  for (let bin = bandBins + 1; bin <= size / 2; bin += 1) {
    const hz = bin * binHz;
    const nearest = Math.max(1, Math.round(hz / fundamentalHz));
    const distanceBins = Math.abs(hz - nearest * fundamentalHz) / binHz;
    if (distanceBins <= bandBins) harmonic += power[bin]!;
    else noise += power[bin]!;
  }
  return 10 * Math.log10((harmonic + 1e-30) / (noise + 1e-30));
}

/** |FFT|² of the first `size` samples (a power of two) under a 4-term Blackman-Harris window. */
function powerSpectrum(samples: ArrayLike<number>, size: number): Float64Array {
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < size; i += 1) {
    const phase = (2 * Math.PI * i) / (size - 1);
    const window = 0.35875 - 0.48829 * Math.cos(phase) + 0.14128 * Math.cos(2 * phase) - 0.01168 * Math.cos(3 * phase);
    re[i] = samples[i]! * window;
  }
  fft(re, im);
  const power = new Float64Array(size / 2 + 1);
  for (let bin = 0; bin <= size / 2; bin += 1) power[bin] = re[bin]! * re[bin]! + im[bin]! * im[bin]!;
  return power;
}

/** In-place iterative radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i += 1) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let length = 2; length <= n; length *= 2) {
    const angle = (-2 * Math.PI) / length;
    const stepRe = Math.cos(angle);
    const stepIm = Math.sin(angle);
    for (let start = 0; start < n; start += length) {
      let wRe = 1;
      let wIm = 0;
      for (let k = 0; k < length / 2; k += 1) {
        const a = start + k;
        const b = a + length / 2;
        const tRe = re[b]! * wRe - im[b]! * wIm;
        const tIm = re[b]! * wIm + im[b]! * wRe;
        re[b] = re[a]! - tRe;
        im[b] = im[a]! - tIm;
        re[a] = re[a]! + tRe;
        im[a] = im[a]! + tIm;
        const nextRe = wRe * stepRe - wIm * stepIm;
        wIm = wRe * stepIm + wIm * stepRe;
        wRe = nextRe;
      }
    }
  }
}
