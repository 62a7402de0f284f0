import fs from 'node:fs';
import path from 'node:path';
import { assertFakeMicrophoneWav, encodeWav } from '../../tests/e2e/support/wav';
import { seededRandom } from './seeded-random';

const TALKER_RATE = 16_000;
// Far longer than any delay the analysis searches, so one stretch of the loop never matches another.
const LOOP_SECONDS = 12;
const HARMONICS = 8;

/**
 * A talker for the bench: syllables of a voiced tone (a fundamental of 110 to 230 Hz with its
 * harmonics, so a codec and the browser's noise suppression treat it as voice) 60 to 250 ms long,
 * each at a random loudness over 16 dB with 10 ms fades, between pauses of 20 to 180 ms. Unlike
 * speech's phrases and long pauses, every second of it has a loudness pattern of its own, so the
 * analysis can tell which moment of it a listener hears and how loud, and no other talker's
 * pattern matches it. Deterministic for a seed.
 */
export function talkerSignal(seed: number, seconds: number): Float32Array {
  const random = seededRandom(seed);
  const samples = new Float32Array(Math.round(seconds * TALKER_RATE));
  const fade = 0.01 * TALKER_RATE;
  let at = 0;
  let phase = 0;
  while (at < samples.length) {
    const length = Math.round((0.06 + random() * 0.19) * TALKER_RATE);
    const loudness = 0.5 * 10 ** (-random() * 0.8);
    const fundamental = 110 + random() * 120;
    for (let i = 0; i < length && at + i < samples.length; i += 1) {
      const envelope = Math.min(1, i / fade, (length - 1 - i) / fade);
      let value = 0;
      for (let k = 1; k <= HARMONICS; k += 1) value += Math.sin(k * phase) / k;
      samples[at + i] = (loudness * envelope * value) / 2;
      phase += (2 * Math.PI * fundamental) / TALKER_RATE;
    }
    at += length + Math.round((0.02 + random() * 0.16) * TALKER_RATE);
  }
  return samples;
}

/** Writes a fake microphone's file of one talker, which Chromium loops, and returns its path. */
export function writeTalkerWav(dir: string, seed: number): string {
  const file = path.join(dir, `talker-${seed}.wav`);
  fs.writeFileSync(file, encodeWav(talkerSignal(seed, LOOP_SECONDS), TALKER_RATE));
  assertFakeMicrophoneWav(file);
  return file;
}
