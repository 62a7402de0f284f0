import type { VoiceType } from '../../common/voice';
import type { EqualizerGains } from './equalizer';

/**
 * The nine voice types of docs/product.md §3 as voice characters over one engine. They keep the product's keys
 * and labels, but no signal processing turns one accent into another (that takes recognising and
 * re-synthesising speech): each type changes pitch and timbre, not pronunciation or melody, and
 * which character goes with which key is arbitrary; it says nothing about how anyone speaks. Each
 * keeps the speaker's own melody, only moved by its pitch factor: characters that bent the melody
 * (livelier, flatter, or with a lilt) failed the measure of issue 21, which holds every character
 * to its pitch factor on each voiced frame of speech (src/dsp/voice/speech-quality.test.ts).
 */

export interface VoiceCharacter {
  /** What the listener hears, for the UI and the docs. */
  description: string;
  /** Multiplies the user's pitch. */
  pitch: number;
  /** Moves the formants (the size of the vocal tract): above 1 smaller, below 1 larger. */
  formant: number;
  equalizer: EqualizerGains;
}

export const voiceCharacters: Readonly<Record<VoiceType, Readonly<VoiceCharacter>>> = {
  normal: {
    description: 'Your own voice, unchanged.',
    pitch: 1,
    formant: 1,
    equalizer: { lowDb: 0, midDb: 0, presenceDb: 0, highDb: 0 },
  },
  caucasian: {
    description: 'Slightly higher and brighter, a lighter, smaller-sounding voice.',
    pitch: 1.065,
    formant: 1.06,
    equalizer: { lowDb: -3, midDb: 0, presenceDb: 1, highDb: 5 },
  },
  european: {
    description: 'A touch lower, warm and soft, with a rounder timbre.',
    pitch: 0.97,
    formant: 0.95,
    equalizer: { lowDb: 4, midDb: 0, presenceDb: -3, highDb: -2 },
  },
  russian: {
    description: 'Deeper, with a larger, fuller-bodied timbre.',
    pitch: 0.88,
    formant: 0.92,
    equalizer: { lowDb: 3, midDb: 2, presenceDb: 0, highDb: -3 },
  },
  chinese: {
    description: 'Higher and clear, with a crisp, present tone.',
    pitch: 1.1,
    formant: 1.03,
    equalizer: { lowDb: -2, midDb: 0, presenceDb: 4, highDb: 0 },
  },
  indian: {
    description: 'Higher, bright and forward, with a strong middle.',
    pitch: 1.14,
    formant: 1,
    equalizer: { lowDb: 0, midDb: 6, presenceDb: 2, highDb: 0 },
  },
  african: {
    description: 'Lower and resonant, with a full, warm body.',
    pitch: 0.92,
    formant: 0.97,
    equalizer: { lowDb: 5, midDb: 2, presenceDb: 1, highDb: 0 },
  },
  hispanic: {
    description: 'A little higher, with a clear, present tone.',
    pitch: 1.03,
    formant: 1.02,
    equalizer: { lowDb: 2, midDb: 0, presenceDb: 4, highDb: 1 },
  },
  middleEastern: {
    description: 'Slightly lower and darker, with a nasal, mid-forward tone.',
    pitch: 0.96,
    formant: 0.95,
    equalizer: { lowDb: -1, midDb: 6, presenceDb: -2, highDb: -4 },
  },
};
