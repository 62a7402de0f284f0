import { z } from 'zod/mini';
import { plans, tiers, type Tier } from '../plans';
import { voiceTypes, type VoiceSettings } from '../voice';
import { voiceSettingsSchema } from './calls';

/** PUT /voice-settings: the whole settings, each value checked as docs/product.md §5 says; unknown fields refused. */
export const putVoiceSettingsBodySchema = z.strictObject(voiceSettingsSchema.shape, {
  error: 'Voice settings must be an object with voiceType, pitch and speed',
});

// Answers carry stored values, already on the step, so they are read without the body's rounding.
const storedVoiceSettingsSchema = z.object({
  voiceType: z.enum(voiceTypes),
  pitch: z.number(),
  speed: z.number(),
});

/** The user's saved settings, what their plan lets them use, and the plan. */
export const voiceSettingsAnswerSchema = z.object({
  settings: storedVoiceSettingsSchema,
  allowed: z.object({
    voiceTypes: z.array(z.enum(voiceTypes)),
    pitchAndSpeed: z.boolean(),
  }),
  tier: z.enum(tiers),
});

export type VoiceSettingsAnswer = z.infer<typeof voiceSettingsAnswerSchema>;

/** Issue 7 point 7: what the caller is told when settings go beyond their plan (403 `plan_required`). */
export const voicePlanRefusals = {
  needsPremium: 'Voice changer needs Premium',
  needsPlatinum: 'This accent needs Platinum',
} as const;

export type VoicePlanRefusal = (typeof voicePlanRefusals)[keyof typeof voicePlanRefusals];

/**
 * Why `tier` may not use `settings` (docs/architecture.md#plans-and-metering), or null when it may. An accent no plan below
 * Platinum has needs Platinum, whatever the current plan; a basic accent or a pitch or speed off 1
 * needs Premium. Shared so the page refuses a locked choice with the server's words.
 */
export function voicePlanRefusal(settings: VoiceSettings, tier: Tier): VoicePlanRefusal | null {
  const plan = plans[tier];
  if (!plan.voiceTypes.includes(settings.voiceType)) {
    return plans.premium.voiceTypes.includes(settings.voiceType) ? voicePlanRefusals.needsPremium : voicePlanRefusals.needsPlatinum;
  }
  if (!plan.pitchAndSpeed && (settings.pitch !== 1 || settings.speed !== 1)) return voicePlanRefusals.needsPremium;
  return null;
}
