import { describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { toneWav } from '../../../tests/support/voicemail-audio';
import { AppError } from '../http/app-error';
import { decodeGreeting, NOT_AUDIO, TOO_LONG } from './greeting-audio';
import { encodeOggOpus } from './ogg-opus-encode';

const asFloat = (samples: Int16Array) => Float32Array.from(samples, (sample) => sample / 32768);

function refusal(upload: Buffer): AppError {
  try {
    decodeGreeting(upload);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the upload was taken');
}

describe('decodeGreeting', () => {
  it.each([
    [8_000, 1],
    [16_000, 1],
    [44_100, 2],
    [48_000, 2],
  ])('takes a %i Hz WAV with %i channel(s), as mono at 16 kHz', (sampleRate, channels) => {
    const samples = decodeGreeting(toneWav({ hz: 700, seconds: 1.5, sampleRate, channels }));
    expect(samples.length / 16_000).toBeCloseTo(1.5, 1);
    expect(dominantFrequency(asFloat(samples.subarray(2_000, 18_000)), 16_000)).toBeCloseTo(700, 0);
  });

  it('takes an Ogg Opus file', () => {
    const tone = Int16Array.from({ length: 32_000 }, (_, i) => Math.round(8_000 * Math.sin((2 * Math.PI * 500 * i) / 16_000)));
    const samples = decodeGreeting(encodeOggOpus(tone));
    expect(Math.abs(samples.length - 32_000)).toBeLessThanOrEqual(320);
    expect(dominantFrequency(asFloat(samples.subarray(4_000, 20_000)), 16_000)).toBeCloseTo(500, 0);
  });

  it('refuses a greeting longer than 30 seconds, in either format', () => {
    expect(refusal(toneWav({ hz: 400, seconds: 30.5, sampleRate: 8_000 }))).toMatchObject({ statusCode: 400, message: TOO_LONG, field: 'greeting' });
    expect(refusal(encodeOggOpus(new Int16Array(16_000 * 31)))).toMatchObject({ statusCode: 400, message: TOO_LONG });
  });

  it('refuses what is not a WAV or Ogg Opus file, saying so', () => {
    expect(refusal(Buffer.from('just some text'))).toMatchObject({ statusCode: 400, message: NOT_AUDIO, field: 'greeting' });
    expect(refusal(Buffer.from('OggS and nothing more')).message).toContain(NOT_AUDIO);
    const eightBit = toneWav({ hz: 400, seconds: 1 });
    eightBit.writeUInt16LE(8, 34);
    expect(refusal(eightBit).message).toBe('The greeting WAV must be 16-bit PCM, mono or stereo');
    expect(refusal(toneWav({ hz: 400, seconds: 1, sampleRate: 96_000 })).message).toBe('The greeting WAV must be sampled at 8 to 48 kHz, not 96000 Hz');
  });
});
