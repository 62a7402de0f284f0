import { describe, expect, it } from 'vitest';
import { voiceTypes, type VoiceType } from '../../common/voice';
import { MAX_FORMANT, MIN_FORMANT } from './pitch-synchronous-shifter';
import { harmonicTone, speechLikeSignal, toInt16 } from '../../../tests/support/dsp/speech-like-signal';
import { pitchOf, processFrames, toFloat } from '../../../tests/support/dsp/voice-engine-harness';
import { voiceCharacters } from './voice-characters';
import { VoiceEngine } from './voice-engine';

const RATE = 16_000;
const BAND_EDGES_HZ = [100, 200, 400, 800, 1600, 3200, 6400];

/** Long-term share of the energy in each octave band, in dB. */
function octaveProfile(samples: Float32Array): number[] {
  const size = 1024;
  const energy = new Array<number>(BAND_EDGES_HZ.length - 1).fill(0);
  for (let start = 0; start + size <= samples.length; start += size) {
    for (let band = 0; band < energy.length; band += 1) {
      for (let hz = BAND_EDGES_HZ[band]!; hz < BAND_EDGES_HZ[band + 1]!; hz += 25) {
        const coefficient = 2 * Math.cos((2 * Math.PI * hz) / RATE);
        let previous = 0;
        let beforePrevious = 0;
        for (let i = 0; i < size; i += 1) {
          const current = samples[start + i]! + coefficient * previous - beforePrevious;
          beforePrevious = previous;
          previous = current;
        }
        energy[band]! += previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
      }
    }
  }
  const total = energy.reduce((sum, value) => sum + value, 0);
  return energy.map((value) => 10 * Math.log10(value / total));
}

interface Character {
  /** Mean pitch against the input's, in semitones. */
  pitchShift: number;
  spectrum: number[];
}

function describeCharacter(voiceType: VoiceType, melodic: Int16Array, speech: Int16Array): Character {
  const settings = { voiceType, pitch: 1, speed: 1 };
  const sung = toFloat(processFrames(new VoiceEngine(RATE, settings), melodic));
  const semitones: number[] = [];
  for (let start = RATE / 2; start + 1600 <= sung.length; start += 1600) semitones.push(12 * Math.log2(pitchOf(sung.subarray(start, start + 1600), RATE) / 140));
  const mean = semitones.reduce((sum, value) => sum + value, 0) / semitones.length;
  return { pitchShift: mean, spectrum: octaveProfile(toFloat(processFrames(new VoiceEngine(RATE, settings), speech))) };
}

describe('voice characters', () => {
  it('leaves the normal voice alone', () => {
    const normal = voiceCharacters.normal;
    expect([normal.pitch, normal.formant]).toEqual([1, 1]);
    expect(Object.values(normal.equalizer).every((db) => db === 0)).toBe(true);
  });

  it.each(voiceTypes)('%s stays within what sounds human and describes itself', (voiceType) => {
    const character = voiceCharacters[voiceType];
    expect(character.formant).toBeGreaterThanOrEqual(MIN_FORMANT);
    expect(character.formant).toBeLessThanOrEqual(MAX_FORMANT);
    expect(Math.abs(Math.log2(character.pitch))).toBeLessThan(0.25);
    expect(character.description.length).toBeGreaterThan(10);
  });

  it('gives each voice type a character that measurably differs from every other', () => {
    // A melody of ±12 % around 140 Hz shows pitch; speech-like syllables show timbre.
    const melodic = toInt16(harmonicTone({ sampleRate: RATE, seconds: 4, fundamental: (t) => 140 * (1 + 0.12 * Math.sin(2 * Math.PI * 0.6 * t)), harmonics: 30 }));
    const speech = toInt16(speechLikeSignal({ sampleRate: RATE, seconds: 6, seed: 3 }));
    const characters = new Map(voiceTypes.map((voiceType) => [voiceType, describeCharacter(voiceType, melodic, speech)]));
    expect(Math.abs(characters.get('normal')!.pitchShift)).toBeLessThan(0.1);
    for (const a of voiceTypes) {
      for (const b of voiceTypes) {
        if (a >= b) continue;
        const one = characters.get(a)!;
        const other = characters.get(b)!;
        const pitchApart = Math.abs(one.pitchShift - other.pitchShift);
        const spectrumApart = Math.sqrt(one.spectrum.reduce((sum, db, band) => sum + (db - other.spectrum[band]!) ** 2, 0) / one.spectrum.length);
        // Half a semitone or 2 dB of timbre.
        expect(pitchApart >= 0.5 || spectrumApart >= 2, `${a} and ${b} sound alike`).toBe(true);
      }
    }
    // Nine characters through the whole engine: seconds of one core, more while other files share it.
  }, 60_000);
});
