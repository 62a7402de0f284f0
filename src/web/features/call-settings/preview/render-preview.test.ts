import { describe, expect, it } from 'vitest';
import { dominantFrequency, sine } from '../../../../../tests/support/dsp/analysis';
import { renderPreview } from './render-preview';

const rate = 16_000;

describe('renderPreview', () => {
  it('leaves the default voice as recorded, to 16-bit precision', () => {
    const recording = sine(220, rate, rate, 0.5);
    const played = renderPreview(recording, rate, { voiceType: 'normal', pitch: 1, speed: 1 });
    expect(played).toHaveLength(recording.length);
    expect(Math.max(...played.map((sample, i) => Math.abs(sample - recording[i]!)))).toBeLessThan(1 / 16_384);
  });

  it('applies the shown pitch and speed: a 200 Hz tone at pitch 1.5 and speed 2 comes back at 300 Hz in half the time', () => {
    const recording = sine(200, rate, 2 * rate, 0.5);
    const played = renderPreview(recording, rate, { voiceType: 'normal', pitch: 1.5, speed: 2 });
    expect(played).toHaveLength(rate);
    expect(dominantFrequency(played.subarray(rate / 4), rate)).toBeCloseTo(300, -1);
  });
});
