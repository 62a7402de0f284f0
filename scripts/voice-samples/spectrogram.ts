import type { IndexedImage } from './png';

/** How a clip becomes a picture: time left to right, frequency from 0 Hz at the bottom to half the rate at the top. */
export interface SpectrogramOptions {
  /** Samples per analysis window, a power of two. */
  windowSize: number;
  /** Rows of the picture; the window's bins are shared evenly between them, each row the loudest of its bins. */
  height: number;
  /** Samples between columns. */
  hop: number;
  /** The levels shown darkest and brightest, in dB below a full-scale sine. */
  floorDb: number;
  ceilingDb: number;
  /** A tick on the left edge every this many Hz. */
  tickHz: number;
  /** Colours from darkest to brightest; fewer compress smaller. */
  levels: number;
}

/** 1024 samples (64 ms at 16 kHz): the harmonics of a low male voice, 70 Hz apart, stay distinct. */
export const speechSpectrogram: SpectrogramOptions = { windowSize: 1024, height: 256, hop: 128, floorDb: -90, ceilingDb: -10, tickHz: 1000, levels: 24 };

/** Dark blue through red to pale yellow, the order of a heat map, so loudness reads without a legend. */
const COLOUR_STOPS: readonly (readonly [number, number, number])[] = [
  [0, 0, 4],
  [40, 11, 84],
  [101, 21, 110],
  [159, 42, 99],
  [212, 72, 66],
  [245, 125, 21],
  [250, 193, 39],
  [252, 255, 164],
];

function colourAt(level: number): readonly [number, number, number] {
  const position = level * (COLOUR_STOPS.length - 1);
  const index = Math.min(COLOUR_STOPS.length - 2, Math.floor(position));
  const t = position - index;
  const [r0, g0, b0] = COLOUR_STOPS[index]!;
  const [r1, g1, b1] = COLOUR_STOPS[index + 1]!;
  return [Math.round(r0 + (r1 - r0) * t), Math.round(g0 + (g1 - g0) * t), Math.round(b0 + (b1 - b0) * t)];
}

/** In-place radix-2 FFT of a power-of-two length. */
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
  for (let size = 2; size <= n; size <<= 1) {
    const step = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k += 1) {
        const wr = Math.cos(step * k);
        const wi = Math.sin(step * k);
        const a = start + k;
        const b = a + size / 2;
        const tr = re[b]! * wr - im[b]! * wi;
        const ti = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
}

/**
 * The short-time spectrum of mono samples (-1 to 1) under a Hann window, levels in dB relative to a
 * full-scale sine, as a picture one column per hop, rows from 0 Hz at the bottom to half the rate.
 */
export function renderSpectrogram(samples: Float32Array, sampleRate: number, options: SpectrogramOptions = speechSpectrogram): IndexedImage {
  const { windowSize, height, hop, floorDb, ceilingDb, tickHz, levels } = options;
  const binsPerRow = windowSize / 2 / height;
  if (!Number.isInteger(binsPerRow) || binsPerRow < 1) throw new RangeError(`a window of ${windowSize} samples cannot fill ${height} rows evenly`);
  if (!Number.isInteger(levels) || levels < 2 || levels > 255) throw new RangeError(`a spectrogram has 2 to 255 levels, not ${levels}`);
  if (windowSize < 2 || (windowSize & (windowSize - 1)) !== 0) throw new RangeError(`the window size must be a power of two, not ${windowSize}`);
  if (samples.length < windowSize) throw new RangeError(`a spectrogram needs at least ${windowSize} samples, not ${samples.length}`);
  const window = Float64Array.from({ length: windowSize }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / windowSize));
  // A full-scale sine gives |X| = sum(window) / 2 in its bin.
  const fullScale = window.reduce((sum, w) => sum + w, 0) / 2;
  const width = Math.floor((samples.length - windowSize) / hop) + 1;
  // The levels, then white for the ticks.
  const palette = new Uint8Array((levels + 1) * 3).fill(255);
  for (let level = 0; level < levels; level += 1) palette.set(colourAt(level / (levels - 1)), level * 3);
  const tick = levels;
  const pixels = new Uint8Array(width * height);
  const re = new Float64Array(windowSize);
  const im = new Float64Array(windowSize);
  for (let column = 0; column < width; column += 1) {
    const start = column * hop;
    for (let i = 0; i < windowSize; i += 1) {
      re[i] = samples[start + i]! * window[i]!;
      im[i] = 0;
    }
    fft(re, im);
    for (let row = 0; row < height; row += 1) {
      let power = 0;
      for (let bin = row * binsPerRow; bin < (row + 1) * binsPerRow; bin += 1) power = Math.max(power, re[bin]! ** 2 + im[bin]! ** 2);
      const db = 10 * Math.log10(power / fullScale ** 2 + 1e-24);
      const level = Math.round(((db - floorDb) / (ceilingDb - floorDb)) * (levels - 1));
      pixels[(height - 1 - row) * width + column] = Math.min(levels - 1, Math.max(0, level));
    }
  }
  const rowHz = sampleRate / 2 / height;
  for (let hz = tickHz; hz < sampleRate / 2; hz += tickHz) {
    const row = height - 1 - Math.round(hz / rowHz);
    pixels.fill(tick, row * width, row * width + Math.min(6, width));
  }
  return { width, height, palette, pixels };
}
