/** Voice settings (docs/product.md §3, §9): the accent presets and the pitch and speed range. */

export const voiceTypes = ['normal', 'caucasian', 'european', 'russian', 'chinese', 'indian', 'african', 'hispanic', 'middleEastern'] as const;
export type VoiceType = (typeof voiceTypes)[number];

export const voiceTypeLabels: Record<VoiceType, string> = {
  normal: 'Normal Accent',
  caucasian: 'Caucasian Accent',
  european: 'European Accent',
  russian: 'Russian Accent',
  chinese: 'Chinese Accent',
  indian: 'Indian Accent',
  african: 'African Accent',
  hispanic: 'Hispanic Accent',
  middleEastern: 'Middle Eastern Accent',
};

export interface VoiceSettings {
  voiceType: VoiceType;
  pitch: number;
  speed: number;
}

export const defaultVoiceSettings: VoiceSettings = { voiceType: 'normal', pitch: 1, speed: 1 };

/** docs/product.md §5: pitch and speed from 0.5 to 2 in steps of 0.1. */
export const VOICE_RANGE = { min: 0.5, max: 2, step: 0.1 } as const;

/** A pitch or speed on VOICE_RANGE's step, whatever floating point made of it (0.30000000000000004 → 0.3). */
export function roundToVoiceStep(value: number): number {
  return Math.round(value / VOICE_RANGE.step) / Math.round(1 / VOICE_RANGE.step);
}

export function isDefaultVoice(settings: VoiceSettings): boolean {
  return settings.voiceType === 'normal' && settings.pitch === 1 && settings.speed === 1;
}
