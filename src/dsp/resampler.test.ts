import { describe, expect, it } from 'vitest';
import { dominantFrequency, rms, sine } from '../../tests/support/dsp/analysis';
import { StreamingResampler } from './resampler';

function resampleInChunks(resampler: StreamingResampler, input: Float32Array, chunk: number): Float32Array {
  const parts: number[] = [];
  for (let start = 0; start < input.length; start += chunk) {
    const piece = input.subarray(start, Math.min(input.length, start + chunk));
    const out = new Float32Array(resampler.maxOutput(piece.length));
    const written = resampler.process(piece, out);
    for (let i = 0; i < written; i += 1) parts.push(out[i]!);
  }
  return Float32Array.from(parts);
}

describe('StreamingResampler', () => {
  it.each([
    [48_000, 16_000],
    [44_100, 16_000],
    [16_000, 48_000],
    [16_000, 8_000],
    [8_000, 16_000],
  ])('keeps a 440 Hz tone at 440 Hz and its level from %i Hz to %i Hz', (from, to) => {
    const input = sine(440, from, from);
    const output = resampleInChunks(new StreamingResampler(from, to), input, 128);
    // The filter holds back 16 input samples of look-ahead until more input comes.
    expect(Math.abs(output.length - to)).toBeLessThanOrEqual(Math.ceil((16 * to) / from) + 2);
    const steady = output.subarray(200, output.length - 200);
    expect(dominantFrequency(steady, to)).toBeCloseTo(440, 0);
    expect(rms(steady)).toBeCloseTo(rms(input), 2);
  });

  it('gives the same output whatever the chunk size', () => {
    const input = sine(300, 48_000, 9_600);
    const a = resampleInChunks(new StreamingResampler(48_000, 16_000), input, 128);
    const b = resampleInChunks(new StreamingResampler(48_000, 16_000), input, 960);
    expect(a.length).toBe(b.length);
    for (let i = 0; i < a.length; i += 1) expect(a[i]).toBeCloseTo(b[i]!, 6);
  });

  it('removes what the lower rate cannot carry instead of folding it back', () => {
    // 7 kHz at 48 kHz would alias to 1 kHz at 8 kHz without the low-pass.
    const input = sine(7_000, 48_000, 48_000);
    const output = resampleInChunks(new StreamingResampler(48_000, 8_000), input, 480);
    expect(rms(output.subarray(100))).toBeLessThan(0.01);
  });
});
