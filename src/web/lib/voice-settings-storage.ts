import { voiceSettingsSchema } from '../../common/api/calls';
import { defaultVoiceSettings, type VoiceSettings } from '../../common/voice';

const STORAGE_KEY = 'voiceSettings';

/** docs/product.md §3: the last settings shown, kept under `voiceSettings`; defaults when absent or not valid settings. */
export function readStoredVoiceSettings(): VoiceSettings {
  try {
    const parsed = voiceSettingsSchema.safeParse(JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? 'null'));
    return parsed.success ? parsed.data : { ...defaultVoiceSettings };
  } catch {
    return { ...defaultVoiceSettings };
  }
}

/** docs/product.md §3: saved as JSON whenever the panel reports a change; the dialer's notice reads it. */
export function storeVoiceSettings(settings: VoiceSettings) {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Storage full or blocked (private mode): the server copy still holds the settings.
  }
}
