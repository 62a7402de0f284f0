import { defaultVoiceSettings, isDefaultVoice, voiceTypeLabels, voiceTypes, type VoiceSettings } from '../../../common/voice';

/** SPEC §3: the voice settings kept in local storage under `voiceSettings`; defaults when absent or unreadable. */
export function readStoredVoiceSettings(): VoiceSettings {
  try {
    const raw = window.localStorage.getItem('voiceSettings');
    if (!raw) return defaultVoiceSettings;
    const parsed = JSON.parse(raw) as Partial<VoiceSettings>;
    const voiceType = voiceTypes.find((type) => type === parsed.voiceType) ?? 'normal';
    const pitch = typeof parsed.pitch === 'number' ? parsed.pitch : 1;
    const speed = typeof parsed.speed === 'number' ? parsed.speed : 1;
    return { voiceType, pitch, speed };
  } catch {
    return defaultVoiceSettings;
  }
}

/** The accent's label when the voice changer is on, else null. */
export function activeVoiceLabel(settings: VoiceSettings): string | null {
  return isDefaultVoice(settings) ? null : voiceTypeLabels[settings.voiceType];
}
