import { describe, expect, it } from 'vitest';
import { DTMF_GAP_MS, DTMF_KEYS, DTMF_TONE_MS, DtmfTones, detectDtmf, goertzelAmplitude } from './dtmf';

const ALL_KEYS = DTMF_KEYS.join('');

/** Runs `frames` 20 ms frames of `voice` through the generator; answers the output scaled to ±1. */
function play(tones: DtmfTones, sampleRate: number, frames: number, voice: (index: number) => number = () => 0): Float32Array {
  const samples = (sampleRate / 1000) * 20;
  const out = new Float32Array(frames * samples);
  const frame = new Int16Array(samples);
  for (let f = 0; f < frames; f += 1) {
    for (let i = 0; i < samples; i += 1) frame[i] = voice(f * samples + i);
    const played = tones.apply(frame);
    for (let i = 0; i < samples; i += 1) out[f * samples + i] = played[i]! / 32768;
  }
  return out;
}

const framesFor = (keys: number) => Math.ceil((keys * (DTMF_TONE_MS + DTMF_GAP_MS)) / 20) + 5;

describe('DTMF tones', () => {
  it.each([16_000, 8_000])('every key played at %i Hz is detected, in order', (sampleRate) => {
    const tones = new DtmfTones(sampleRate);
    tones.add(ALL_KEYS);
    expect(detectDtmf(play(tones, sampleRate, framesFor(12)), sampleRate)).toBe(ALL_KEYS);
  });

  it('plays each key 160 ms at about −10 dBFS per tone, then 80 ms of the voice', () => {
    const sampleRate = 16_000;
    const tones = new DtmfTones(sampleRate);
    tones.add('5');
    const voice = 1000;
    const out = play(tones, sampleRate, 15, () => voice);
    const tone = out.subarray(0, (sampleRate * DTMF_TONE_MS) / 1000);
    // 770 and 1336 Hz, each at about 0.316 of full scale.
    expect(goertzelAmplitude(tone, 0, tone.length, sampleRate, 770)).toBeCloseTo(0.31, 1);
    expect(goertzelAmplitude(tone, 0, tone.length, sampleRate, 1336)).toBeCloseTo(0.31, 1);
    const after = out.subarray(tone.length);
    expect(after.every((sample) => Math.round(sample * 32768) === voice)).toBe(true);
    expect(tones.pending).toBe(0);
  });

  it('leaves the frame untouched while no key is queued, and counts what waits', () => {
    const tones = new DtmfTones(16_000);
    const frame = new Int16Array(320).fill(7);
    expect(tones.apply(frame)).toBe(frame);
    tones.add('12#');
    expect(tones.pending).toBe(3);
    expect(tones.apply(frame)).not.toBe(frame);
    expect(tones.pending).toBe(3);
  });

  it('refuses a key that is not 0-9, * or #', () => {
    expect(() => new DtmfTones(16_000).add('1A')).toThrow('Not a touch-tone key: A');
  });

  it('hears a key repeated after its gap as two presses, and a key over speech', () => {
    const sampleRate = 16_000;
    const tones = new DtmfTones(sampleRate);
    tones.add('11');
    const speechLike = (index: number) => Math.round(8000 * Math.sin((2 * Math.PI * 220 * index) / sampleRate));
    expect(detectDtmf(play(tones, sampleRate, framesFor(2), speechLike), sampleRate)).toBe('11');
  });

  it('hears a key broken by a 25 ms dropout as one press, and one broken by 80 ms (the sender’s gap) as two', () => {
    const sampleRate = 16_000;
    const tones = new DtmfTones(sampleRate);
    tones.add('9');
    const tone = play(tones, sampleRate, framesFor(1)).subarray(0, (sampleRate * DTMF_TONE_MS) / 1000);
    const brokenBy = (dropoutMs: number) => {
      const half = tone.length / 2;
      const dropout = (sampleRate * dropoutMs) / 1000;
      const out = new Float32Array(tone.length + dropout);
      out.set(tone.subarray(0, half));
      out.set(tone.subarray(half), half + dropout);
      return out;
    };
    expect(detectDtmf(brokenBy(25), sampleRate)).toBe('9');
    expect(detectDtmf(brokenBy(DTMF_GAP_MS), sampleRate)).toBe('99');
  });

  it('hears nothing in a voice alone, a single tone or silence', () => {
    const sampleRate = 16_000;
    const single = Float32Array.from({ length: sampleRate }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 697 * i) / sampleRate));
    const voice = Float32Array.from({ length: sampleRate }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / sampleRate) + 0.2 * Math.sin((2 * Math.PI * 880 * i) / sampleRate));
    expect(detectDtmf(single, sampleRate)).toBe('');
    expect(detectDtmf(voice, sampleRate)).toBe('');
    expect(detectDtmf(new Float32Array(sampleRate), sampleRate)).toBe('');
  });
});
