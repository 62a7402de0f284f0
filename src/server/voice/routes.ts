import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { putVoiceSettingsBodySchema, voiceSettingsAnswerSchema, type VoiceSettingsAnswer } from '../../common/api/voice-settings';
import { plans, type Tier } from '../../common/plans';
import type { VoiceSettings } from '../../common/voice';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { currentPlan } from '../plans/service';
import { checkAgainstPlan, getVoiceSettings, saveVoiceSettings } from './service';

function answer(settings: VoiceSettings, tier: Tier): VoiceSettingsAnswer {
  const { voiceTypes, pitchAndSpeed } = plans[tier];
  return { settings, allowed: { voiceTypes: [...voiceTypes], pitchAndSpeed }, tier };
}

interface VoiceSettingsRouteOptions {
  auth: Auth;
  db: Database;
  /** Told of every saved change, so that a call in progress takes it at once. */
  onSaved?: (userId: string, settings: VoiceSettings) => Promise<void>;
}

export const voiceSettingsRoutes: FastifyPluginAsyncZod<VoiceSettingsRouteOptions> = async (app, { auth, db, onSaved }) => {
  app.get('/voice-settings', { schema: { response: { 200: voiceSettingsAnswerSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const [settings, plan] = await Promise.all([getVoiceSettings(db, user.id), currentPlan(db, user.id)]);
    return answer(settings, plan.tier);
  });

  app.put('/voice-settings', { config: { sync: ['voice'] }, schema: { body: putVoiceSettingsBodySchema, response: { 200: voiceSettingsAnswerSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const { tier } = await currentPlan(db, user.id);
    // Refused rather than saved and set aside at call time: the page must not show a voice calls will not use.
    const { refusal } = checkAgainstPlan(request.body, tier);
    if (refusal) throw new AppError(403, 'plan_required', refusal);
    const saved = await saveVoiceSettings(db, user.id, request.body);
    await onSaved?.(user.id, saved);
    return answer(saved, tier);
  });
};
