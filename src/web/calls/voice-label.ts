import type { VoiceSettings } from '../../common/voice';
import { voiceTypeLabels } from '../../common/voice';

/** 'Normal Accent, pitch 1.50x, speed 1.00x (from contact Ada)': the voice a call uses or used (issue 20 item 5); no contact part for the caller's own settings. */
export function voiceLabel(settings: VoiceSettings, contactName: string | null) {
  const voice = `${voiceTypeLabels[settings.voiceType]}, pitch ${settings.pitch.toFixed(2)}x, speed ${settings.speed.toFixed(2)}x`;
  return contactName ? `${voice} (from contact ${contactName})` : voice;
}
