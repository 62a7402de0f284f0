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

  it('counts an output an octave off as an octave error', () => {
    const result = compareSpeechPitch(voice(200, 0.002), voice(150, 0.002), { sampleRate: RATE, ratio: 1.5, hopSeconds: 0.01 });
    expect(result.voicedFrames).toBeGreaterThan(50);
    expect(result.withinTolerance).toBe(0);
    expect(result.octaveErrors).toBe(result.voicedFrames);
  });
});
