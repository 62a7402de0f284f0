import { putVoiceSettingsBodySchema, voiceSettingsAnswerSchema } from '../../../../common/api/voice-settings';
import type { VoiceSettings } from '../../../../common/voice';
import { api } from '../../../lib/api-client';

export function saveVoiceSettings(settings: VoiceSettings) {
  return api.put('/voice-settings', voiceSettingsAnswerSchema, settings, putVoiceSettingsBodySchema);
}
