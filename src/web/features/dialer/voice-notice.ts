import { isDefaultVoice, voiceTypeLabels, type VoiceSettings } from '../../../common/voice';

/** The accent's label when the voice changer is on, else null. */
export function activeVoiceLabel(settings: VoiceSettings): string | null {
  return isDefaultVoice(settings) ? null : voiceTypeLabels[settings.voiceType];
}
