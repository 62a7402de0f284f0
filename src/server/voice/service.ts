import { eq } from 'drizzle-orm';
import { voicePlanRefusal, type VoicePlanRefusal } from '../../common/api/voice-settings';
import type { Tier } from '../../common/plans';
import { defaultVoiceSettings, type VoiceSettings } from '../../common/voice';
import type { Database } from '../db/client';
import { voiceSettings } from './schema';

/** The user's saved voice settings; the default voice until they save any. */
export async function getVoiceSettings(db: Database, userId: string): Promise<VoiceSettings> {
  const [row] = await db.select().from(voiceSettings).where(eq(voiceSettings.userId, userId));
  if (!row) return { ...defaultVoiceSettings };
  return { voiceType: row.voiceType, pitch: row.pitch, speed: row.speed };
}

/** Replaces the user's voice settings; the caller has checked them against the plan. */
export async function saveVoiceSettings(db: Database, userId: string, settings: VoiceSettings): Promise<VoiceSettings> {
  await db
    .insert(voiceSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: voiceSettings.userId, set: { ...settings, updatedAt: new Date() } });
  return getVoiceSettings(db, userId);
}

export interface PlanCheckedVoice {
  /** What the call may use: the settings themselves, or the normal voice when the plan does not cover them. */
  effective: VoiceSettings;
  /** What the caller is told when the settings were set aside; null when they are within the plan. */
  refusal: VoicePlanRefusal | null;
}

/**
 * Settings beyond the plan fall back to the normal voice as a whole (issue 7 point 7) rather than
 * keeping the parts the plan allows: the caller hears one clear refusal, not a half-changed voice.
 */
export function checkAgainstPlan(settings: VoiceSettings, tier: Tier): PlanCheckedVoice {
  const refusal = voicePlanRefusal(settings, tier);
  return refusal ? { effective: { ...defaultVoiceSettings }, refusal } : { effective: settings, refusal: null };
}
