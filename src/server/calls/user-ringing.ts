import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { VOICEMAIL_ANSWERED, type VoicemailReason } from '../../common/api/voicemail';
import { NARROWBAND_RATE, WIDEBAND_RATE, type CallOutcome } from '../../common/calls';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../http/app-error';
import type { CallLeg } from '../media/leg';
import { admitsIncoming } from '../admission/admission';
import { currentPlan } from '../plans/service';
import { getPreferences } from '../preferences/service';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { announceChange } from '../sync/announce-change';
import type { UnansweredCall, VoicemailAnswering } from '../voicemail/voicemail-answering';
import { finaliseCall, markRinging } from './call-records';
import type { CallRouting } from './call-routing';
import type { InboundCall, LiveCall, LiveCalls, ProviderCall } from './live-calls';
import { calls } from './schema';
import type { CallTiming } from './timing';

/** Who rings when a call reaches a Voxline user's number: their tabs, their voicemail, or nobody (and why). */
export type RingResult = 'ringing' | 'voicemail' | 'busy' | 'unavailable';

/** What the caller's record and page say of a call voicemail answered. */

/** The numbers a call rings between, and the conversation the callee's record joins. */
interface RingingFrom {
  conversationId: string;
  fromNumber: string;
  toNumber: string;
}

const NO_LONGER_RINGING = 'This call is no longer ringing';

export interface UserRingingDependencies {
  db: Database;
  hub: RealtimeHub;
  timing: CallTiming;
  instanceId: string;
  live: LiveCalls;
  routing: CallRouting;
  /** Takes the calls nobody answers (docs/calls.md#voicemail); without it they end as missed. */
  voicemail?: VoicemailAnswering;
  /** MAX_CALLS_PER_INSTANCE: above the callee's plan's share of it, a call to them goes to voicemail as busy (admission/admission.ts). */
  maxCalls?: number;
}

/**
 * Rings Voxline users (docs/calls.md#routing, rule 2): every listening tab of the callee, on
 * any instance, rings; the first tab to answer takes the call; a callee who cannot take it, or
 * never answers, keeps it in their history as missed, and the caller reaches the callee's
 * voicemail (docs/calls.md#voicemail). The callee's record ends with the call, or as it leaves them.
 */
export class UserRinging {
  constructor(private readonly deps: UserRingingDependencies) {
    deps.live.onEnded(async (call, outcome, calleeReason) => {
      if (call.inbound) await this.endInbound(call.inbound, outcome, calleeReason);
    });
    deps.routing.on('answer', ({ userId, callId, tabId }) => this.answer(userId, callId, tabId));
    deps.hub.onStartedListening((userId, tabId) => {
      this.ringLateTab(userId, tabId).catch((error: unknown) => deps.live.logFor(userId, '').warn({ err: error, tabId }, 'could not ring a tab that began to listen'));
    });
    deps.routing.on('reject', ({ userId, callId }) => this.reject(userId, callId));
  }

  /** A Voxline caller's call to a number another user rents: it rings them, goes to their voicemail, or ends saying why not. */
  async ringUser(call: LiveCall, calleeUserId: string, from: RingingFrom) {
    const { live } = this.deps;
    const { result, missedId } = await this.ringCallee(call, calleeUserId, from);
    if (result !== 'ringing' && missedId) {
      const unanswered = { ownerId: calleeUserId, callRecordId: missedId, from: from.fromNumber, to: from.toNumber, reason: missedReason(result) };
      if (await this.toVoicemail(call, unanswered)) return;
    }
    if (result === 'unavailable') return live.end(call, 'unavailable', 'Nobody is taking calls on that number right now');
    if (result === 'busy') return live.end(call, 'busy', 'The line is busy');
    await markRinging(this.deps.db, call.id);
    live.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'ringing' });
  }

  /**
   * A call from outside Voxline to a user's number: the virtual carrier's simulated caller, or a
   * provider's inbound call. Only the callee has a record of it. `caller` is the far side's leg, or
   * null while a provider has yet to connect it.
   */
  async ringFromOutside(calleeUserId: string, from: string, to: string, caller: CallLeg | null, provider: ProviderCall | null = null): Promise<{ result: RingResult; callId: string }> {
    const { live } = this.deps;
    const call: LiveCall = { ...live.create(randomUUID(), null, WIDEBAND_RATE), caller, provider };
    if (caller) caller.onClose(() => void live.end(call, call.answeredAt ? 'completed' : 'cancelled', null));
    const { result, missedId } = await this.ringCallee(call, calleeUserId, { conversationId: randomUUID(), fromNumber: from, toNumber: to });
    live.add(call);
    if (result === 'ringing') return { result, callId: call.id };
    if (missedId && (await this.toVoicemail(call, { ownerId: calleeUserId, callRecordId: missedId, from, to, reason: missedReason(result) }))) return { result: 'voicemail', callId: call.id };
    await live.end(call, result, null);
    return { result, callId: call.id };
  }

  /**
   * A callee's tab answers, on any instance: the first tab wins, the others stop ringing. Every
   * answer reaches the instance holding the call, and the record's move from ringing to answered
   * is made once, in the database, so that no two tabs both win.
   */
  async answer(userId: string, callId: string, tabId: string) {
    const { db, hub, live, routing, timing } = this.deps;
    const inbound = live.getInbound(callId);
    if (!inbound) {
      await routing.forward(userId, callId, NO_LONGER_RINGING, { op: 'answer', userId, callId, tabId });
      return;
    }
    if (inbound.userId !== userId || inbound.outbound.ending) throw AppError.notFound(NO_LONGER_RINGING);
    if (inbound.answeredBy) throw AppError.conflict('This call was answered in another tab');
    inbound.answeredBy = tabId;
    const { outbound } = inbound;
    const at = new Date();
    const [won] = await db
      .update(calls)
      .set({ state: 'answered', answeredAt: at })
      .where(and(eq(calls.id, inbound.id), eq(calls.state, 'ringing')))
      .returning({ id: calls.id });
    if (!won) throw AppError.notFound(NO_LONGER_RINGING);
    await live.markCallAnswered(outbound, at);
    const answeredAt = at.toISOString();
    hub.sendToTab(userId, tabId, { type: 'call.state', callId: inbound.id, state: 'answered', answeredAt });
    hub.sendToListeners(userId, { type: 'call.ended', callId: inbound.id, outcome: 'completed', durationSec: 0, reason: 'Answered in another tab' }, tabId);
    // The answering tab connects its audio next; without it the call cannot go on.
    live.after(outbound, timing.mediaConnectTimeoutMs, () => {
      if (!outbound.callee) void live.end(outbound, 'failed', 'The call could not connect its audio');
    });
  }

  /**
   * A tab that begins to listen while a call to its user rings: one that moved from a draining
   * instance (docs/deploy.md#draining), whose ring went out while it had no socket, or one opened
   * just now. It rings too; its answer reaches the instance holding the call like any other.
   */
  private async ringLateTab(userId: string, tabId: string) {
    const { db, hub } = this.deps;
    const ringing = await db
      .select()
      .from(calls)
      .where(and(eq(calls.userId, userId), eq(calls.direction, 'inbound'), eq(calls.state, 'ringing')));
    for (const row of ringing) {
      hub.sendToTab(userId, tabId, { type: 'call.incoming', callId: row.id, from: row.fromNumber, to: row.toNumber, at: row.startedAt.toISOString() });
    }
  }

  /** The callee declines the call, on any instance; too late once a tab has answered. */
  async reject(userId: string, callId: string) {
    const { live, routing } = this.deps;
    const inbound = live.getInbound(callId);
    if (!inbound) {
      await routing.forward(userId, callId, NO_LONGER_RINGING, { op: 'reject', userId, callId });
      return;
    }
    if (inbound.userId !== userId) throw AppError.notFound(NO_LONGER_RINGING);
    if (inbound.answeredBy) return;
    await this.unanswered(inbound.outbound, 'rejected', 'rejected', 'The call was declined');
  }

  /**
   * A call that rang the callee ends for them as missed (`outcome`); the caller goes on to their
   * voicemail, or, without one, the call ends.
   */
  private async unanswered(call: LiveCall, reason: VoicemailReason, outcome: CallOutcome, text: string) {
    const inbound = call.inbound;
    if (!this.deps.voicemail || !inbound || inbound.answeredBy || call.ending || call.answeredAt) return this.deps.live.end(call, outcome, text);
    // The callee's side ends now; the call itself goes on without it.
    call.inbound = null;
    const row = await this.endInbound(inbound, outcome, text);
    const unanswered = row && { ownerId: inbound.userId, callRecordId: inbound.id, from: row.fromNumber, to: row.toNumber, reason };
    if (!unanswered || !(await this.toVoicemail(call, unanswered))) await this.deps.live.end(call, outcome, text);
  }

  /** The callee's voicemail answers the call; false when it cannot, and the call ends as before. */
  private async toVoicemail(call: LiveCall, unanswered: Omit<UnansweredCall, 'log'>): Promise<boolean> {
    const { live, voicemail } = this.deps;
    if (!voicemail || call.ending) return false;
    let leg: CallLeg;
    try {
      leg = await voicemail.answer({ ...unanswered, log: call.log });
    } catch (error) {
      call.log.warn({ err: error, reason: unanswered.reason }, 'voicemail could not take the call');
      return false;
    }
    call.log.info({ reason: unanswered.reason }, 'voicemail answered the call');
    call.note = VOICEMAIL_ANSWERED;
    await live.answer(call, leg);
    // The caller hung up while the greeting was being fetched: no message is coming.
    if (call.callee !== leg) leg.close('The caller hung up');
    return true;
  }

  /**
   * Rings the callee's listening tabs. One who cannot take the call (not listening, already on a
   * call) keeps it in their history as missed.
   */
  private async ringCallee(call: LiveCall, calleeUserId: string, from: RingingFrom): Promise<{ result: Exclude<RingResult, 'voicemail'>; missedId: string | null }> {
    const { db, hub, live, timing } = this.deps;
    const calleePreferences = await getPreferences(db, calleeUserId);
    const record = {
      conversationId: from.conversationId,
      userId: calleeUserId,
      direction: 'inbound' as const,
      fromNumber: from.fromNumber,
      toNumber: from.toNumber,
      providerCallId: call.provider?.id ?? null,
      metered: false,
      hiddenFromHistory: !calleePreferences.callHistory,
    };
    const missed = async (outcome: 'unavailable' | 'busy', reason: string) => {
      const [row] = await db.insert(calls).values({ ...record, state: 'ended', outcome, reason, endedAt: new Date(), durationSec: 0 }).returning({ id: calls.id });
      // Never rung, so no call end announces it: the callee's open tabs show the missed call now.
      void announceChange({ hub, db, log: call.log }, calleeUserId, ['history']);
      return { result: outcome, missedId: row?.id ?? null };
    };

    if (this.deps.maxCalls !== undefined) {
      const { tier } = await currentPlan(db, calleeUserId);
      // The call being rung, when it is already carried here, is not a new one.
      const carried = live.all().filter((other) => other !== call).length;
      if (!admitsIncoming(tier, carried, this.deps.maxCalls)) return missed('busy', 'Voxline was too busy to ring you');
    }
    if (!(await hub.isListening(calleeUserId))) return missed('unavailable', 'You were not taking calls');
    let inboundRow: typeof calls.$inferSelect;
    try {
      [inboundRow] = (await db.insert(calls).values({ ...record, state: 'ringing', instanceId: this.deps.instanceId }).returning()) as [typeof calls.$inferSelect];
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return missed('busy', 'You were on another call');
    }

    live.addInbound({
      id: inboundRow.id,
      userId: calleeUserId,
      sampleRate: calleePreferences.dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE,
      outbound: call,
      answeredBy: null,
      muted: false,
    });
    // Voicemail takes an unanswered call sooner than the ring timeout would end it.
    const noAnswerMs = this.deps.voicemail ? Math.min(timing.ringTimeoutMs, timing.voicemailNoAnswerMs) : timing.ringTimeoutMs;
    call.log.info({ ringTimeoutMs: noAnswerMs }, 'ringing the callee');
    hub.sendToListeners(calleeUserId, { type: 'call.incoming', callId: inboundRow.id, from: from.fromNumber, to: from.toNumber, at: inboundRow.startedAt.toISOString() });
    live.after(call, noAnswerMs, () => {
      if (!call.answeredAt) void this.unanswered(call, 'no_answer', 'no-answer', 'Nobody answered');
    });
    return { result: 'ringing', missedId: null };
  }

  /** The callee's record ends with the call; one never answered is a missed call in their history. */
  private async endInbound(inbound: InboundCall, outcome: CallOutcome, reason: string | null) {
    this.deps.live.forgetInbound(inbound.id);
    const calleeReason = inbound.answeredBy ? reason : outcome === 'rejected' ? 'You declined the call' : outcome === 'cancelled' ? 'The caller hung up' : reason;
    const row = await finaliseCall(this.deps.db, inbound.id, inbound.answeredBy ? 'completed' : outcome, calleeReason, new Date());
    const message = { type: 'call.ended' as const, callId: inbound.id, outcome: row?.outcome ?? outcome, durationSec: row?.durationSec ?? 0, ...(calleeReason ? { reason: calleeReason } : {}) };
    if (inbound.answeredBy) this.deps.hub.sendToTab(inbound.userId, inbound.answeredBy, message);
    else this.deps.hub.sendToListeners(inbound.userId, message);
    return row;
  }
}

/** Why a call that could not ring went to voicemail. */
function missedReason(result: 'busy' | 'unavailable'): VoicemailReason {
  return result === 'busy' ? 'busy' : 'not_listening';
}
