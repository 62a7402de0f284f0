import { voicePlanRefusal } from '../../../common/api/voice-settings';
import type { Tier } from '../../../common/plans';
import { isDefaultVoice, voiceTypeLabels, type VoiceSettings } from '../../../common/voice';

/**
 * The accent's label when the voice changer will act on the call, else null: the settings are not
 * the default ones and the plan in force (`tier`, undefined until known) allows them. Settings beyond
 * the plan leave the call on the normal voice (docs/product.md §6), so no notice claims otherwise.
 */
export function activeVoiceLabel(settings: VoiceSettings, tier: Tier | undefined): string | null {
  if (isDefaultVoice(settings) || tier === undefined || voicePlanRefusal(settings, tier) !== null) return null;
  return voiceTypeLabels[settings.voiceType];
}
