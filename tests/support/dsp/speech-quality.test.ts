import { describe, expect, it } from 'vitest';
import { harmonicTone } from './speech-like-signal';
import { compareSpeechPitch } from './speech-quality';

const RATE = 16_000;

/** A steady voice between stretches of silence, so that input and output align by their onsets. */
function voice(fundamental: number, peak: number): Float32Array {
  const out = new Float32Array(RATE * 1.5);
  out.set(harmonicTone({ sampleRate: RATE, seconds: 1, fundamental, peak }), RATE / 5);
  return out;
}

describe('compareSpeechPitch', () => {
  it.each([0.5, 0.002])('reads a voice at peak %f the same, however quiet', (peak) => {
    // pitchfinder's YIN alone took a voice this quiet (peak 0.002, about -54 dBFS) for a 5–8 kHz tone.
    const result = compareSpeechPitch(voice(200, peak), voice(300, peak), { sampleRate: RATE, ratio: 1.5, hopSeconds: 0.01 });
    expect(result.voicedFrames).toBeGreaterThan(50);
    expect(result.withinTolerance).toBe(1);
    expect(result.octaveErrors).toBe(0);
  });

  it('reads a bright child raised an octave at its period, not twice it, though the period falls between two samples', () => {
    // 556 Hz raised to 1,112 Hz: a period of 14.4 samples, 0.4 of a sample from YIN's nearest lag,
    // with its harmonics up to 7.8 kHz at one level.
    const bright = (fundamental: number) => {
      const out = new Float32Array(RATE * 1.5);
      for (let i = RATE / 5; i < RATE * 1.2; i += 1) {
        for (let k = 1; k * fundamental < RATE / 2; k += 1) out[i]! += (0.5 / 7) * Math.sin((2 * Math.PI * k * fundamental * i) / RATE + k);
      }
      return out;
    };
    const result = compareSpeechPitch(bright(556), bright(1112), { sampleRate: RATE, ratio: 2, hopSeconds: 0.01 });
    expect(result.voicedFrames).toBeGreaterThan(50);
    expect(result.withinTolerance).toBe(1);
  });

  it('counts an output an octave off as an octave error', () => {
    const result = compareSpeechPitch(voice(200, 0.002), voice(150, 0.002), { sampleRate: RATE, ratio: 1.5, hopSeconds: 0.01 });
    expect(result.voicedFrames).toBeGreaterThan(50);
    expect(result.withinTolerance).toBe(0);
    expect(result.octaveErrors).toBe(result.voicedFrames);
  });
});
