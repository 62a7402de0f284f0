import { voiceTypeLabels, voiceTypes, type VoiceSettings } from '../../src/common/voice';
import { voiceCharacters } from '../../src/dsp/voice/voice-characters';

/** One setting of the voice changer heard in docs/voices.md. */
export interface VoiceSample {
  /** The clips' file names start with this. */
  name: string;
  /** The heading, in the app's words. */
  title: string;
  /** What a listener hears. */
  description: string;
  settings: VoiceSettings;
}

/** One speaker of the sample sentence. */
export interface SampleSpeaker {
  name: string;
  label: string;
  /** The recording, a mono 16-bit 16 kHz WAV in the repository. */
  file: string;
}

/** The two speakers of tests/fixtures/speech/README.md's sample sentence. */
export const sampleSpeakers: readonly SampleSpeaker[] = [
  { name: 'male', label: 'Male voice', file: 'tests/fixtures/speech/sample-sentence-male.wav' },
  { name: 'female', label: 'Female voice', file: 'tests/fixtures/speech/sample-sentence-female.wav' },
];

/** Every voice character at pitch 1, then the normal voice at pitch 0.75 and 1.5. */
export const voiceSamples: readonly VoiceSample[] = [
  ...voiceTypes.map((voiceType) => ({
    name: voiceType,
    title: voiceTypeLabels[voiceType],
    description: voiceCharacters[voiceType].description,
    settings: { voiceType, pitch: 1, speed: 1 },
  })),
  ...[0.75, 1.5].map((pitch) => ({
    name: `pitch-${pitch}`,
    title: `Pitch ${pitch.toFixed(2)}x`,
    description: pitch < 1 ? 'Your voice a fourth lower (pitch 0.75), timbre kept: deeper, the same speaker.' : 'Your voice a fifth higher (pitch 1.5), timbre kept: higher, the same speaker.',
    settings: { voiceType: 'normal' as const, pitch, speed: 1 },
  })),
];

export function clipFile(speaker: SampleSpeaker, sample: VoiceSample) {
  return `${speaker.name}-${sample.name}.ogg`;
}

export function spectrogramFile(speaker: SampleSpeaker, sample: VoiceSample) {
  return `${speaker.name}-${sample.name}.png`;
}
