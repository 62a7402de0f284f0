import { describe, expect, it } from 'vitest';
import { voiceTypes, type VoiceSettings } from '../../common/voice';
import { compareSpeechPitch, mixAtSnr, type SpeechPitchResult } from '../../../tests/support/dsp/speech-quality';
import { processFrames, toFloat, voicePartOfOutput } from '../../../tests/support/dsp/voice-engine-harness';
import { readWav } from '../../../tests/support/dsp/wav-file';
import { voiceCharacters } from './voice-characters';
import { VoiceEngine } from './voice-engine';

/**
 * Issue 21: the engine on speech, judged by pitchfinder's YIN rather than by its own tracker
 * (tests/support/dsp/speech-quality.ts says how frames are aligned and which count as voiced).
 * The sample sentence by six synthetic speakers from 63 to 626 Hz (tests/fixtures/speech); the
 * whole set runs in `npm run bench:voice`.
 */

const RATE = 16_000;
const FIXTURES = new URL('../../../tests/fixtures/speech/', import.meta.url);
const SPEAKERS = ['deep-male', 'male', 'female', 'czech-child', 'child', 'high-child'];

function clip(name: string): Int16Array {
  const { samples, sampleRate } = readWav(new URL(`${name}.wav`, FIXTURES).pathname);
  if (sampleRate !== RATE) throw new Error(`${name}.wav is at ${sampleRate} Hz, not ${RATE}`);
  // 0.2 s of silence after the speech, so that the engine's delay does not cut its end off.
  const padded = new Int16Array(samples.length + RATE / 5);
  padded.set(samples);
  return padded;
}

const sentences = new Map(SPEAKERS.map((speaker) => [speaker, clip(`sample-sentence-${speaker}`)]));
const cleanInputs = new Map([...sentences].map(([speaker, samples]) => [speaker, toFloat(samples)]));

/** Float samples as the 16-bit PCM the engine takes. */
function pcm(samples: Float32Array): Int16Array {
  return Int16Array.from(samples, (value) => Math.max(-32768, Math.min(32767, Math.round(value * 32768))));
}

/** The voice's part of the engine's output on the voice with `noise` added, judged against the clean voice. */
function voicePart(speaker: string, settings: VoiceSettings, ratio: number, noise: Float32Array): SpeechPitchResult {
  const clean = cleanInputs.get(speaker)!;
  return compareSpeechPitch(clean, toFloat(voicePartOfOutput(RATE, settings, sentences.get(speaker)!, pcm(mixAtSnr(clean, noise, 10)))), { sampleRate: RATE, ratio });
}

function changed(speaker: string, settings: VoiceSettings, ratio: number, noise?: Float32Array): SpeechPitchResult {
  const clean = cleanInputs.get(speaker)!;
  const input = noise ? mixAtSnr(clean, noise, 10) : clean;
  const output = toFloat(processFrames(new VoiceEngine(RATE, settings), pcm(input)));
  return compareSpeechPitch(input, output, { sampleRate: RATE, ratio, reference: clean });
}

interface Pooled {
  voicedFrames: number;
  withinTolerance: number;
  octaveErrors: number;
  worstLoudnessDb: number;
  worstStepRatio: number;
}

function pooled(results: SpeechPitchResult[]): Pooled {
  const voicedFrames = results.reduce((sum, result) => sum + result.voicedFrames, 0);
  const hits = results.reduce((sum, result) => sum + result.withinTolerance * result.voicedFrames, 0);
  return {
    voicedFrames,
    withinTolerance: hits / voicedFrames,
    octaveErrors: results.reduce((sum, result) => sum + result.octaveErrors, 0),
    worstLoudnessDb: Math.max(...results.map((result) => Math.abs(result.loudnessDb))),
    worstStepRatio: Math.max(...results.map((result) => result.stepRatio)),
  };
}

/**
 * What the engine holds today, pooled over the six speakers (about 250 voiced frames), so that no
 * change makes it worse. Issue 21 asks for more, and bench/voice reports against that: 98 % of
 * frames within 1 % and no octave error (here 96.8–98.4 % and 1–2 frames an octave off, most of
 * them on frames where the output's YIN reading is itself doubtful), 95 % with noise (here 93 % in
 * traffic noise but 78 % in babble, whose voices the tracker follows), and no step above the
 * input's (here up to 1.6 times: the make-up gain of a lowered pitch and the bright characters'
 * treble). Loudness is within the issue's 1 dB everywhere.
 */
const HELD = { share: 0.95, octaveErrors: 4, loudnessDb: 1, stepRatio: 1.7 };

function expectHeld(result: Pooled, share = HELD.share, octaveErrors = HELD.octaveErrors) {
  expect(result.voicedFrames).toBeGreaterThanOrEqual(200);
  expect(result.withinTolerance).toBeGreaterThanOrEqual(share);
  expect(result.octaveErrors).toBeLessThanOrEqual(octaveErrors);
  expect(result.worstLoudnessDb).toBeLessThanOrEqual(HELD.loudnessDb);
  expect(result.worstStepRatio).toBeLessThanOrEqual(HELD.stepRatio);
}

describe('the voice engine on speech', () => {
  it.each([0.5, 0.75, 1.5, 2])('at pitch %f moves the voiced frames of six speakers by the pitch, at the same loudness', (pitch) => {
    expectHeld(pooled(SPEAKERS.map((speaker) => changed(speaker, { voiceType: 'normal', pitch, speed: 1 }, pitch))));
  });

  it.each(voiceTypes.filter((type) => type !== 'normal'))('as %s moves the voiced frames of six speakers by the character pitch, at the same loudness', (voiceType) => {
    expectHeld(pooled(SPEAKERS.map((speaker) => changed(speaker, { voiceType, pitch: 1, speed: 1 }, voiceCharacters[voiceType].pitch))));
  });

  it('holds the pitch with traffic noise 10 dB below the voice', () => {
    const noise = toFloat(clip('traffic-noise'));
    expectHeld(pooled(SPEAKERS.map((speaker) => changed(speaker, { voiceType: 'normal', pitch: 1.5, speed: 1 }, 1.5, noise))), 0.92, 5);
  });

  it('mostly holds the pitch with babble 10 dB below the voice', () => {
    const noise = toFloat(clip('babble-noise'));
    expectHeld(pooled(SPEAKERS.map((speaker) => changed(speaker, { voiceType: 'normal', pitch: 1.5, speed: 1 }, 1.5, noise))), 0.75, 20);
  });
});

/**
 * What noise does to the voice itself: the engine finds its marks on the noisy voice and moves the
 * clean one's grains (tests/support/dsp/voice-engine-harness.ts), so YIN reads the voice alone. In
 * babble, YIN cannot read a voice within 1 % on a fifth of the frames even unchanged (decision 026,
 * "The voice's part of the output"); this measure shows where the engine itself is led astray.
 */
describe("the voice's part of the engine's output in noise", () => {
  const settings: VoiceSettings = { voiceType: 'normal', pitch: 1.5, speed: 1 };

  it('is what the engine gives when the marks are found on the voice itself', () => {
    for (const speaker of ['female', 'high-child']) {
      const samples = sentences.get(speaker)!;
      expect(voicePartOfOutput(RATE, settings, samples, samples)).toEqual(processFrames(new VoiceEngine(RATE, settings), samples));
    }
  });

  it('moves the voice by the pitch on 95 % of its voiced frames with traffic noise 10 dB below it', () => {
    const noise = toFloat(clip('traffic-noise'));
    expectHeld(pooled(SPEAKERS.map((speaker) => voicePart(speaker, settings, 1.5, noise))), 0.95, 5);
  });

  /** What it holds today (84.9 %, 18 frames at a wrong octave or passed unchanged), against the 95 %. */
  it('moves the voice by the pitch on most voiced frames with babble 10 dB below it', () => {
    const noise = toFloat(clip('babble-noise'));
    expectHeld(pooled(SPEAKERS.map((speaker) => voicePart(speaker, settings, 1.5, noise))), 0.83, 20);
  });
});
