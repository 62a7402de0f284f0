import type { Contact } from '../../../common/api/contacts';
import { voicePlanRefusal } from '../../../common/api/voice-settings';
import type { Tier } from '../../../common/plans';
import { isDefaultVoice, voiceTypeLabels, type VoiceSettings } from '../../../common/voice';
import { voiceLabel } from '../../calls/voice-label';

/**
 * The accent's label when the voice changer will act on the call, else null: the settings are not
 * the default ones and the plan in force (`tier`, undefined until known) allows them. Settings beyond
 * the plan leave the call on the normal voice (docs/product.md §6), so no notice claims otherwise.
 */
export function activeVoiceLabel(settings: VoiceSettings, tier: Tier | undefined): string | null {
  if (isDefaultVoice(settings) || tier === undefined || voicePlanRefusal(settings, tier) !== null) return null;
  return voiceTypeLabels[settings.voiceType];
}

/**
 * What the dialer says about the voice the call to `to` (E.164, null while not a number) will use, as
 * the server chooses it: the preset of the user's first contact by name for that number, else the
 * user's own settings. A preset beyond the plan gives the refusal the call itself would give.
 */
export function dialerVoiceNotice(own: VoiceSettings, contacts: Contact[] | undefined, to: string | null, tier: Tier | undefined): string | null {
  const contact = to === null ? undefined : contacts?.find((each) => each.phoneNumber === to && each.voice !== null);
  if (!contact?.voice) {
    const label = activeVoiceLabel(own, tier);
    return label ? `Voice changer active: ${label}` : null;
  }
  if (tier === undefined) return null;
  const refusal = voicePlanRefusal(contact.voice, tier);
  if (refusal) return refusal;
  return isDefaultVoice(contact.voice) ? null : `Voice changer active: ${voiceLabel(contact.voice, contact.name)}`;
}
