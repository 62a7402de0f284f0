import { describe, expect, it } from 'vitest';
import { sine } from '../../tests/support/dsp/analysis';
import { renderSpectrogram, speechSpectrogram } from './spectrogram';

const rate = 16_000;
const { windowSize, height, hop, levels } = speechSpectrogram;
const rowHz = rate / 2 / height;

describe('renderSpectrogram', () => {
  it('draws a 1 kHz tone as one bright row at 1 kHz, 0 Hz at the bottom, one column per hop', () => {
    const image = renderSpectrogram(sine(1000, rate, rate, 0.5), rate);
    expect(image.width).toBe(Math.floor((rate - windowSize) / hop) + 1);
    expect(image.height).toBe(height);
    const column = Math.floor(image.width / 2);
    const levelsDown = Array.from({ length: image.height }, (_, row) => image.pixels[row * image.width + column]!);
    const brightest = levelsDown.indexOf(Math.max(...levelsDown));
    expect((image.height - 1 - brightest) * rowHz).toBe(1000);
  });

  it('shows silence at the darkest level, with white ticks every kHz on the left edge', () => {
    const image = renderSpectrogram(new Float32Array(rate), rate);
    const column = 10;
    expect(new Set(Array.from({ length: image.height }, (_, row) => image.pixels[row * image.width + column]))).toEqual(new Set([0]));
    const tickRows = Array.from({ length: image.height }, (_, row) => row).filter((row) => image.pixels[row * image.width] === levels);
    expect(tickRows.map((row) => (image.height - 1 - row) * rowHz)).toEqual([7000, 6000, 5000, 4000, 3000, 2000, 1000]);
    expect([...image.palette.subarray(levels * 3)]).toEqual([255, 255, 255]);
  });

  it('refuses a clip shorter than one window', () => {
    expect(() => renderSpectrogram(new Float32Array(100), rate)).toThrow(`a spectrogram needs at least ${windowSize} samples, not 100`);
  });
});
