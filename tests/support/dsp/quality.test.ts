import { describe, expect, it } from 'vitest';
import { fundamentalFrequency, sine } from './analysis';
import { harmonicsToNoiseRatio } from './quality';
import { harmonicTone, seededRandom } from './speech-like-signal';

const RATE = 16_000;

function noise(length: number, level: number, seed = 11): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length }, () => level * (random() * 2 - 1));
}

describe('harmonicsToNoiseRatio', () => {
  it('scores a perfectly periodic voice above 80 dB', () => {
    expect(harmonicsToNoiseRatio(harmonicTone({ sampleRate: RATE, seconds: 1.1, fundamental: 225 }), RATE, 225)).toBeGreaterThan(80);
  });

  it('scores white noise at about -10 dB (the harmonic bands cover a tenth of the spectrum)', () => {
    expect(harmonicsToNoiseRatio(noise(16_384, 0.3), RATE, 225)).toBeCloseTo(-10, 0);
  });

  it('reads the signal-to-noise ratio of a voice with noise added', () => {
    const voice = harmonicTone({ sampleRate: RATE, seconds: 1.1, fundamental: 225 });
    let power = 0;
    for (const value of voice) power += value * value;
    // Uniform noise of amplitude a has power a² / 3; aim 30 dB below the voice.
    const level = Math.sqrt((3 * power) / voice.length / 1000);
    const added = noise(voice.length, level);
    const noisy = voice.map((value, i) => value + added[i]!);
    expect(Math.abs(harmonicsToNoiseRatio(noisy, RATE, 225) - 30)).toBeLessThan(1.5);
  });

  it('counts a voice off its expected pitch by 2 % as noise', () => {
    expect(harmonicsToNoiseRatio(harmonicTone({ sampleRate: RATE, seconds: 1.1, fundamental: 229.5 }), RATE, 225)).toBeLessThan(10);
  });
});

describe('fundamentalFrequency', () => {
  it('finds the pitch of a harmonic voice to 0.01 Hz', () => {
    expect(fundamentalFrequency(harmonicTone({ sampleRate: RATE, seconds: 0.5, fundamental: 151.37 }), RATE, 50, 500)).toBeCloseTo(151.37, 1);
  });

  it('finds the pitch when the fundamental is missing', () => {
    const voice = new Float32Array(8192);
    for (let k = 2; k <= 8; k += 1) {
      const partial = sine(180 * k, RATE, voice.length, 0.2 / k);
      for (let i = 0; i < voice.length; i += 1) voice[i]! += partial[i]!;
    }
    expect(fundamentalFrequency(voice, RATE, 50, 500)).toBeCloseTo(180, 1);
  });
});
