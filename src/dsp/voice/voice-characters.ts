import type { VoiceType } from '../../common/voice';
import type { EqualizerGains } from './equalizer';

/**
 * The nine voice types of docs/product.md §3 as voice characters over one engine. They keep the product's keys
 * and labels, but no signal processing turns one accent into another (that takes recognising and
 * re-synthesising speech): each type changes timbre, pitch and melody, not pronunciation, and which
 * character goes with which key is arbitrary; it says nothing about how anyone speaks.
 */

export interface VoiceCharacter {
  /** What the listener hears, for the UI and the docs. */
  description: string;
  /** Multiplies the user's pitch. */
  pitch: number;
  /** Moves the formants (the size of the vocal tract): above 1 smaller, below 1 larger. */
  formant: number;
  /** Exponent on the pitch's distance from the speaker's average: above 1 livelier, below 1 flatter. */
  intonation: number;
  /** A slow rise and fall of pitch: relative depth and rate. */
  liltDepth: number;
  liltHz: number;
  equalizer: EqualizerGains;
}

export const voiceCharacters: Readonly<Record<VoiceType, Readonly<VoiceCharacter>>> = {
  normal: {
    description: 'Your own voice, unchanged.',
    pitch: 1,
    formant: 1,
    intonation: 1,
    liltDepth: 0,
    liltHz: 0,
    equalizer: { lowDb: 0, midDb: 0, presenceDb: 0, highDb: 0 },
  },
  caucasian: {
    description: 'Brighter and slightly higher, a lighter timbre.',
    pitch: 1.06,
    formant: 1.06,
    intonation: 1.1,
    liltDepth: 0,
    liltHz: 0,
    equalizer: { lowDb: -3, midDb: 0, presenceDb: 1, highDb: 5 },
  },
  european: {
    description: 'Warm and soft, a rounder timbre with a livelier melody.',
    pitch: 0.97,
    formant: 0.95,
    intonation: 1.3,
    liltDepth: 0,
    liltHz: 0,
    equalizer: { lowDb: 4, midDb: 0, presenceDb: -3, highDb: -2 },
  },
  russian: {
    description: 'Deeper and even, a larger timbre with a flatter melody.',
    pitch: 0.88,
    formant: 0.92,
    intonation: 0.6,
    liltDepth: 0,
    liltHz: 0,
    equalizer: { lowDb: 3, midDb: 2, presenceDb: 0, highDb: -3 },
  },
  chinese: {
    description: 'Higher and clear, with a wide, melodic pitch range.',
    pitch: 1.1,
    formant: 1.03,
    intonation: 1.6,
    liltDepth: 0,
    liltHz: 0,
    equalizer: { lowDb: -2, midDb: 0, presenceDb: 4, highDb: 0 },
  },
  indian: {
    description: 'Bright and forward, with a rolling rise and fall in pitch.',
    pitch: 1.05,
    formant: 1,
    intonation: 1.2,
    liltDepth: 0.04,
    liltHz: 2.5,
    equalizer: { lowDb: 0, midDb: 6, presenceDb: 2, highDb: 0 },
  },
  african: {
    description: 'Lower and resonant, a fuller body.',
    pitch: 0.92,
    formant: 0.97,
    intonation: 1.3,
    liltDepth: 0,
    liltHz: 0,
    equalizer: { lowDb: 5, midDb: 2, presenceDb: 1, highDb: 0 },
  },
  hispanic: {
    description: 'Lively and full, with a quick, animated melody.',
    pitch: 1,
    formant: 1.02,
    intonation: 1.5,
    liltDepth: 0.03,
    liltHz: 1.5,
    equalizer: { lowDb: 2, midDb: 0, presenceDb: 4, highDb: 1 },
  },
  middleEastern: {
    description: 'Slightly lower and darker, with a slow, swinging melody.',
    pitch: 0.96,
    formant: 0.95,
    intonation: 1.15,
    liltDepth: 0.05,
    liltHz: 3.5,
    equalizer: { lowDb: -1, midDb: 6, presenceDb: -2, highDb: -4 },
  },
};
