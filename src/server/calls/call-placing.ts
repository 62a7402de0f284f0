import { eq } from 'drizzle-orm';
import { SERVER_BUSY, SERVER_BUSY_MESSAGE, SERVER_BUSY_RETRY_SEC, SERVER_DRAINING, SERVER_DRAINING_RETRY_SEC, type PlaceCallBody, type PlaceCallResult } from '../../common/api/calls';
import type { SessionUser } from '../../common/api/session';
import { NARROWBAND_RATE, WIDEBAND_RATE } from '../../common/calls';
import { toE164 } from '../../common/phone';
import { VOICE_EFFECT_DELAY_MS } from '../../common/call-quality';
import { isDefaultVoice, type VoiceSettings } from '../../common/voice';
import { admitCall } from '../admission/admission';
import type { Database } from '../db/client';
import type { Draining } from '../health/draining';
import { isUniqueViolation } from '../db/errors';
import { contactVoiceFor } from '../contacts/service';
import { AppError } from '../http/app-error';
import { EchoParty } from '../media/echo-party';
import { isRentedBy, numberHolder } from '../numbers/number-owners';
import { assertMinutesLeft, currentPlan } from '../plans/service';
import { getPreferences } from '../preferences/service';
import { checkAgainstPlan, getVoiceSettings } from '../voice/service';
import { toCallRecord } from './call-records';
import type { LiveCalls } from './live-calls';
import type { ProviderSide } from './provider-calls';
import { calls } from './schema';
import type { CallTiming } from './timing';
import type { UserRinging } from './user-ringing';

export interface PlaceCallOptions {
  /** Instead of the caller's saved settings (the compatibility route sends its own). */
  voiceSettings?: VoiceSettings;
}

export interface CallPlacingDependencies {
  db: Database;
  timing: CallTiming;
  soundTestNumber: string;
  instanceId: string;
  draining: Pick<Draining, 'active'>;
  /** MAX_CALLS_PER_INSTANCE: the calls carried here from which each plan's new calls are refused (admission). */
  maxCalls: number;
  live: LiveCalls;
  ringing: UserRinging;
  provider: ProviderSide;
}

/**
 * A Voxline user places a call (docs/calls.md#routing): from a number they rent, within their
 * plan, one at a time; the call's record opens, and `to` is routed by the first rule that matches:
 * the sound-test line's echo, a Voxline user's tabs, or the phone network.
 */
export async function placeCall(deps: CallPlacingDependencies, user: SessionUser, body: PlaceCallBody, options: PlaceCallOptions = {}): Promise<PlaceCallResult> {
  const { db, live, timing } = deps;
  // A call placed here now would keep the drain waiting, or be cut when it ends. The browser tries
  // once more, and the balancer sends that try to a ready instance (docs/deploy.md#draining).
  if (deps.draining.active) throw new AppError(503, SERVER_DRAINING, 'This server is restarting. Try your call again in a moment.', undefined, { cause: { retryAfterSec: SERVER_DRAINING_RETRY_SEC } });
  const to = toE164(body.to);
  if (!to) throw AppError.badRequest('Enter a valid phone number to call', 'to');
  if (!(await isRentedBy(db, user.id, body.from))) throw new AppError(400, 'no_phone_number', 'No phone number available', 'from');
  const from = body.from;

  const preferences = await getPreferences(db, user.id);
  const { tier } = await currentPlan(db, user.id);
  // Priority reception (docs/operations.md#priority-reception): a busy instance keeps its last calls for paying plans.
  if (!admitCall(tier, live.all().length, deps.maxCalls)) throw new AppError(503, SERVER_BUSY, SERVER_BUSY_MESSAGE, undefined, { cause: { retryAfterSec: SERVER_BUSY_RETRY_SEC } });
  // The compatibility route's own settings come first; then the called contact's preset, wherever the call was dialled from.
  const contactVoice = options.voiceSettings ? null : await contactVoiceFor(db, user.id, to);
  const voice = checkAgainstPlan(options.voiceSettings ?? contactVoice?.settings ?? (await getVoiceSettings(db, user.id)), tier);
  const soundTest = to === deps.soundTestNumber;
  const callee = soundTest ? null : await numberHolder(db, to);
  // docs/calls.md#routing: only calls over the telephony network use the plan's minutes.
  const metered = !soundTest && !callee;
  if (metered) await assertMinutesLeft(db, user.id);
  let row: typeof calls.$inferSelect;
  try {
    [row] = (await db
      .insert(calls)
      .values({
        conversationId: crypto.randomUUID(),
        userId: user.id,
        direction: 'outbound',
        fromNumber: from,
        toNumber: to,
        state: 'dialing',
        metered,
        hiddenFromHistory: !preferences.callHistory,
        voiceSettings: isDefaultVoice(voice.effective) ? null : voice.effective,
        voiceContactName: contactVoice && !voice.refusal && !isDefaultVoice(voice.effective) ? contactVoice.contactName : null,
        instanceId: deps.instanceId,
      })
      .returning()) as [typeof calls.$inferSelect];
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, 'call_in_progress', 'Please end the current call before starting a new one');
    throw error;
  }

  const call = live.create(row.id, user.id, preferences.dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE);
  call.voiceSettings = voice.effective;
  call.voiceFromContact = contactVoice !== null && !voice.refusal;
  call.metered = metered;
  live.add(call);
  call.log.info({ route: soundTest ? 'sound-test' : callee ? 'voxline-user' : 'phone-network', metered, sampleRate: call.sampleRate }, 'call placed');
  live.after(call, timing.mediaConnectTimeoutMs, () => {
    if (!call.caller) void live.end(call, 'failed', 'Your browser did not connect the call audio');
  });

  if (soundTest) {
    await live.answer(call, new EchoParty(call.sampleRate, timing.echoDelayMs));
  } else if (callee) {
    await deps.ringing.ringUser(call, callee, row);
  } else {
    await deps.provider.callOutside(call, from, to);
  }

  const [current] = await db.select().from(calls).where(eq(calls.id, call.id));
  return {
    call: toCallRecord(current ?? row),
    mediaPath: `/api/v1/calls/${call.id}/media`,
    sampleRate: call.sampleRate,
    ...(voice.refusal ? { voiceNotice: voice.refusal } : {}),
    ...(isDefaultVoice(voice.effective) ? {} : { voiceDelayMs: VOICE_EFFECT_DELAY_MS }),
    ...(contactVoice && !voice.refusal ? { contactVoice } : {}),
  };
}
