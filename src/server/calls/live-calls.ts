import type { CallOutcome, CallSampleRate } from '../../common/calls';
import type { ServerMessage } from '../../common/realtime';
import { defaultVoiceSettings, type VoiceSettings } from '../../common/voice';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { CallerVoice, type CallerVoiceOptions } from '../media/caller-voice';
import type { CallLeg } from '../media/leg';
import { MediaBridge } from '../media/media-bridge';
import { currentPlan, msUntilMinutesRunOut } from '../plans/service';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { checkAgainstPlan } from '../voice/service';
import type { CallLog } from './call-log';
import { finaliseCall, markAnswered } from './call-records';

/** A call the telephony provider carries (TELEPHONY=vonage), as far as this server knows it (provider-calls.ts). */
export interface ProviderCall {
  /** The provider's id for the call, once it has accepted it. */
  id: string | null;
  /** SHA-256 of the media socket's one-time token, until a socket uses it. */
  mediaTokenHash: string | null;
  mediaTokenExpiresAt: number;
  /** The provider has ended the call, or has been asked to hang it up. */
  settled: boolean;
}

/** A call this instance carries, from placing or ringing to its end (docs/calls.md#a-call-and-its-legs). */
export interface LiveCall {
  id: string;
  /**
   * The caller, whose record this call is; null when the caller is outside Voxline (the virtual
   * carrier's simulated caller, a provider's inbound call): the call then has only the callee's record.
   */
  userId: string | null;
  sampleRate: CallSampleRate;
  /** When it was placed, or reached this server from outside: its setup time counts from here. */
  placedAt: Date;
  answeredAt: Date | null;
  caller: CallLeg | null;
  callee: CallLeg | null;
  bridge: MediaBridge | null;
  muted: boolean;
  timers: Set<NodeJS.Timeout>;
  ending: boolean;
  provider: ProviderCall | null;
  /** The call uses the caller's monthly minutes, and ends when they run out. */
  metered: boolean;
  /** The caller's voice settings as the plan allows them, and the changer applying them once joined. */
  voiceSettings: VoiceSettings;
  /** The settings are the called contact's preset: the caller's own, saved during the call, leave it be. */
  voiceFromContact: boolean;
  voice: CallerVoice | null;
  /** When the call rings a Voxline user: the callee's own record of it (user-ringing.ts). */
  inbound: InboundCall | null;
  /** Logs about the call and its legs, each line carrying the call's ids (see callLogBindings). */
  log: CallLog;
  /**
   * What answered the call when it was not a person ('Voicemail', docs/calls.md#voicemail): the
   * caller's answered state says it, and their record keeps it when the call ends without a reason of its own.
   */
  note?: string;
}

/** The callee's side of a call that rings a Voxline user (their inbound record). */
export interface InboundCall {
  id: string;
  userId: string;
  sampleRate: CallSampleRate;
  outbound: LiveCall;
  /** The tab that answered (its id, on whichever instance holds it): the first one wins. */
  answeredBy: string | null;
  muted: boolean;
}

/** Why a media socket cannot join a call: the websocket close code and reason it gets. */
export type AttachRefusal = { code: 4404 | 4409; reason: string };

export const NO_CALL: AttachRefusal = { code: 4404, reason: 'No such call in progress' };
export const AUDIO_TAKEN: AttachRefusal = { code: 4409, reason: 'This call already has its audio connected' };

/** Why a call ended when a participant's session did: for them, and for the other side. */
export const SIGNED_OUT = { own: 'You were signed out', other: 'The other person was signed out' };

/** Runs once the far side has answered. */
export type AnsweredHook = (call: LiveCall) => void;
/** Runs once the call's two legs are joined through the media bridge. */
export type JoinedHook = (call: LiveCall) => void;
/** Runs as a call starts ending, before its legs close: let go of what the call held outside this server. */
export type EndingHook = (call: LiveCall, outcome: CallOutcome) => void;
/** Runs once the caller's record is final: the other records of the call end with it. */
export type EndedHook = (call: LiveCall, outcome: CallOutcome, calleeReason: string | null) => Promise<void>;

export interface LiveCallsDependencies {
  db: Database;
  hub: RealtimeHub;
  log: CallLog;
  /** Told the voice changer's time on each frame (voxline_voice_engine_frame_seconds). */
  voiceFrameTimes?: CallerVoiceOptions['frameTimes'];
}

/**
 * What a call's log lines carry: the call's id (the caller's record), the Voxline caller's id,
 * and once it rings a Voxline user, the callee's id and record. A caller from outside Voxline has
 * no user id, and none is written.
 */
function callLogBindings(call: Pick<LiveCall, 'id' | 'userId' | 'inbound'>): Record<string, string> {
  return {
    callId: call.id,
    ...(call.userId ? { userId: call.userId } : {}),
    ...(call.inbound ? { calleeUserId: call.inbound.userId, calleeCallId: call.inbound.id } : {}),
  };
}

/**
 * The calls this instance carries and their legs: a leg answers, the two legs join through the
 * media bridge once both are there, mute and voice settings reach the bridge, and every call ends
 * here, exactly once (`end`): timers stopped, legs closed, the caller's record finalised and their
 * tabs told. What else must happen at the answer or the end registers a hook (`onAnswered`,
 * `onEnding`, `onEnded`).
 */
export class LiveCalls {
  private readonly calls = new Map<string, LiveCall>();
  /** Inbound records of calls ringing or answered here, by id: the callee's way to their call. */
  private readonly inbound = new Map<string, InboundCall>();
  private readonly answeredHooks: AnsweredHook[] = [];
  private readonly joinedHooks: JoinedHook[] = [];
  private readonly endingHooks: EndingHook[] = [];
  private readonly endedHooks: EndedHook[] = [];

  constructor(private readonly deps: LiveCallsDependencies) {}

  onAnswered(hook: AnsweredHook) {
    this.answeredHooks.push(hook);
  }

  onJoined(hook: JoinedHook) {
    this.joinedHooks.push(hook);
  }

  onEnding(hook: EndingHook) {
    this.endingHooks.push(hook);
  }

  onEnded(hook: EndedHook) {
    this.endedHooks.push(hook);
  }

  /** A new call, not yet carried: `add` it once it goes on. */
  create(id: string, userId: string | null, sampleRate: CallSampleRate): LiveCall {
    return {
      id,
      userId,
      sampleRate,
      placedAt: new Date(),
      answeredAt: null,
      caller: null,
      callee: null,
      bridge: null,
      muted: false,
      timers: new Set(),
      ending: false,
      provider: null,
      metered: false,
      voiceSettings: { ...defaultVoiceSettings },
      voiceFromContact: false,
      voice: null,
      inbound: null,
      log: this.deps.log.child(callLogBindings({ id, userId, inbound: null })),
    };
  }

  add(call: LiveCall) {
    this.calls.set(call.id, call);
  }

  get(callId: string): LiveCall | undefined {
    return this.calls.get(callId);
  }

  all(): LiveCall[] {
    return [...this.calls.values()];
  }

  /** The callee's way to a call that rings them: their inbound record, until it ends. */
  addInbound(inbound: InboundCall) {
    const call = inbound.outbound;
    call.inbound = inbound;
    call.log = this.deps.log.child(callLogBindings(call));
    this.inbound.set(inbound.id, inbound);
  }

  getInbound(recordId: string): InboundCall | undefined {
    return this.inbound.get(recordId);
  }

  forgetInbound(recordId: string) {
    this.inbound.delete(recordId);
  }

  /**
   * The log for the user's call `callId` (their own record's id, as caller or callee): the call's
   * own when this instance holds it, else one bound to the record and its owner.
   */
  logFor(userId: string, callId: string): CallLog {
    const inbound = this.inbound.get(callId);
    if (inbound?.userId === userId) return inbound.outbound.log;
    const call = this.calls.get(callId);
    if (call?.userId === userId) return call.log;
    return this.deps.log.child({ callId, userId });
  }

  /** Whether the user has a call ringing or in progress here, in either direction. */
  hasCallOf(userId: string): boolean {
    for (const call of this.calls.values()) if (call.userId === userId) return true;
    for (const inbound of this.inbound.values()) if (inbound.userId === userId) return true;
    return false;
  }

  /** The far side has answered with its leg: it joins the call. */
  async answer(call: LiveCall, callee: CallLeg) {
    if (call.ending) return;
    call.callee = callee;
    callee.onClose(() => void this.end(call, 'completed', null));
    await this.markCallAnswered(call);
    this.joinIfReady(call);
  }

  /** The far side has picked up: duration counts from here. */
  async markCallAnswered(call: LiveCall, at = new Date()) {
    if (call.ending || call.answeredAt) return;
    call.answeredAt = at;
    call.log.info({ answeredAt: at.toISOString() }, 'call answered');
    for (const hook of this.answeredHooks) void this.runHook('answered', call, () => hook(call));
    if (call.userId) await markAnswered(this.deps.db, call.id, call.answeredAt, call.note ?? null);
    if (call.metered && call.userId) {
      const ms = await msUntilMinutesRunOut(this.deps.db, call.userId, call.answeredAt);
      if (ms !== null) this.after(call, ms, () => void this.end(call, 'completed', 'Monthly minutes used up'));
    }
    this.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'answered', answeredAt: call.answeredAt.toISOString(), ...(call.note ? { reason: call.note } : {}) });
  }

  /**
   * Whether a participant's media leg could join their call here now, and at what rate: the call's
   * PCM rate (8 kHz in Low Data Mode). 'not-here' when this instance does not hold the call.
   */
  legSlot(userId: string, callId: string): { sampleRate: CallSampleRate } | 'not-here' | AttachRefusal {
    const inbound = this.inbound.get(callId);
    if (inbound) {
      const { outbound } = inbound;
      if (inbound.userId !== userId || !inbound.answeredBy || outbound.ending) return NO_CALL;
      return outbound.callee ? AUDIO_TAKEN : { sampleRate: inbound.sampleRate };
    }
    const call = this.calls.get(callId);
    if (!call) return 'not-here';
    if (call.userId !== userId || call.ending) return NO_CALL;
    return call.caller ? AUDIO_TAKEN : { sampleRate: call.sampleRate };
  }

  /**
   * Joins a participant's media leg to their call here: the caller's, or the callee's once a tab
   * answered. 'not-here' when this instance does not hold the call.
   */
  attachLeg(userId: string, callId: string, makeLeg: (sampleRate: CallSampleRate) => CallLeg): 'attached' | 'not-here' | AttachRefusal {
    const slot = this.legSlot(userId, callId);
    if (slot === 'not-here' || 'code' in slot) return slot;
    const leg = makeLeg(slot.sampleRate);
    const inbound = this.inbound.get(callId);
    if (inbound) {
      const { outbound } = inbound;
      outbound.callee = leg;
      leg.onClose(() => void this.end(outbound, 'completed', 'The connection to the other browser was lost'));
      this.joinIfReady(outbound);
      return 'attached';
    }
    const call = this.calls.get(callId)!;
    call.caller = leg;
    leg.onClose(() => void this.end(call, call.answeredAt ? 'completed' : 'cancelled', 'The connection to your browser was lost'));
    this.joinIfReady(call);
    return 'attached';
  }

  /** Bridges the call's two legs once both are there, through the caller's voice changer. */
  joinIfReady(call: LiveCall) {
    if (!call.caller || !call.callee || call.bridge) return;
    const userId = call.userId;
    // The voice changer works on a Voxline caller's voice only (docs/calls.md#media).
    if (userId) {
      call.voice = new CallerVoice(call.caller.sampleRate, call.voiceSettings, (reason) => {
        call.log.warn({ reason }, 'the voice changer failed; the caller is silenced');
        this.deps.hub.send(userId, { type: 'notice', code: 'voice_failed', message: reason });
      }, { frameTimes: this.deps.voiceFrameTimes });
    }
    call.log.info({ caller: call.caller.kind, callee: call.callee.kind }, 'call audio joined');
    call.bridge = new MediaBridge(call.caller, call.callee, call.voice);
    call.bridge.setCallerMuted(call.muted);
    call.bridge.setCalleeMuted(call.inbound?.muted ?? false);
    for (const hook of this.joinedHooks) void this.runHook('joined', call, () => hook(call));
  }

  /** The user hangs up their call here, as its caller or its callee; false when they have none here. */
  async hangUp(userId: string, callId: string): Promise<boolean> {
    const inbound = this.inbound.get(callId);
    if (inbound && inbound.userId === userId) {
      const { outbound } = inbound;
      await this.end(outbound, outbound.answeredAt ? 'completed' : 'rejected', outbound.answeredAt ? null : 'The call was declined');
      return true;
    }
    const call = this.calls.get(callId);
    if (!call || call.userId !== userId) return false;
    await this.end(call, call.answeredAt ? 'completed' : 'cancelled', null);
    return true;
  }

  /** The user's session ended: their call here ends as their hang-up would, saying why; false when they have none here. */
  async endForSignOut(userId: string, callId: string): Promise<boolean> {
    const inbound = this.inbound.get(callId);
    if (inbound && inbound.userId === userId) {
      const { outbound } = inbound;
      await this.end(outbound, outbound.answeredAt ? 'completed' : 'rejected', SIGNED_OUT.other, SIGNED_OUT.own);
      return true;
    }
    const call = this.calls.get(callId);
    if (!call || call.userId !== userId) return false;
    await this.end(call, call.answeredAt ? 'completed' : 'cancelled', SIGNED_OUT.own, SIGNED_OUT.other);
    return true;
  }

  /**
   * An administrator ends the call here whose record is `recordId` (the caller's or the callee's),
   * telling both sides `reason`: answers its outcome, or null when this instance holds no such call.
   */
  async endForOperator(recordId: string, reason: string): Promise<CallOutcome | null> {
    const call = this.inbound.get(recordId)?.outbound ?? this.calls.get(recordId);
    if (!call || call.ending) return null;
    // Not 'cancelled' when unanswered: the callee would be told that the caller hung up.
    const outcome = call.answeredAt ? 'completed' : 'failed';
    await this.end(call, outcome, reason);
    return outcome;
  }

  /** Mutes or unmutes the user's side of their call here; false when this instance does not hold it. */
  setMuted(userId: string, callId: string, muted: boolean): boolean {
    const inbound = this.inbound.get(callId);
    if (inbound && inbound.userId === userId) {
      inbound.muted = muted;
      inbound.outbound.bridge?.setCalleeMuted(muted);
      return true;
    }
    const call = this.calls.get(callId);
    if (!call) return false;
    if (call.userId !== userId) throw AppError.notFound(NO_CALL.reason);
    call.muted = muted;
    call.bridge?.setCallerMuted(muted);
    return true;
  }

  /** Passes a tab's word that it plays its audio late to the user's leg of the call here; false when this instance does not hold it. */
  catchUpPlayout(userId: string, callId: string, bufferedMs: number): boolean {
    const inbound = this.inbound.get(callId);
    if (inbound && inbound.userId === userId) {
      inbound.outbound.callee?.catchUpPlayout?.(bufferedMs);
      return true;
    }
    const call = this.calls.get(callId);
    if (!call) return false;
    if (call.userId !== userId) throw AppError.notFound(NO_CALL.reason);
    call.caller?.catchUpPlayout?.(bufferedMs);
    return true;
  }

  /**
   * The caller's calls here take new voice settings at once, as far as the plan allows; a notice
   * says what it refuses. A call on a contact's preset keeps it.
   */
  async applyVoiceSettings(userId: string, settings: VoiceSettings) {
    const mine = [...this.calls.values()].filter((call) => call.userId === userId && !call.ending && !call.voiceFromContact);
    if (mine.length === 0) return;
    const { tier } = await currentPlan(this.deps.db, userId);
    const voice = checkAgainstPlan(settings, tier);
    for (const call of mine) {
      call.voiceSettings = voice.effective;
      call.voice?.update(voice.effective);
    }
    if (voice.refusal) this.deps.hub.send(userId, { type: 'notice', code: 'voice_plan', message: voice.refusal });
  }

  /**
   * Ends the call, once, whoever asks: stops its timers, closes its legs, finalises the caller's
   * record and tells their tabs; the hooks do the rest. `calleeReason`: what the callee's record
   * says, when a Voxline user answered and it differs.
   */
  async end(call: LiveCall, outcome: CallOutcome, reason: string | null, calleeReason = reason) {
    if (call.ending) return;
    call.ending = true;
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
    this.calls.delete(call.id);
    for (const hook of this.endingHooks) void this.runHook('ending', call, () => hook(call, outcome));
    call.caller?.close(reason ?? 'Call ended');
    call.callee?.close(reason ?? 'Call ended');
    const callerReason = reason ?? call.note ?? null;
    try {
      if (call.userId) {
        const row = await finaliseCall(this.deps.db, call.id, outcome, callerReason, new Date());
        this.sendToCaller(call, {
          type: 'call.ended',
          callId: call.id,
          outcome: row?.outcome ?? outcome,
          durationSec: row?.durationSec ?? 0,
          ...(callerReason ? { reason: callerReason } : {}),
        });
      }
      call.log.info({ outcome, ...(reason ? { reason } : {}) }, 'call ended');
    } catch (error) {
      call.log.warn({ err: error }, 'call could not be finalised');
    }
    for (const hook of this.endedHooks) await this.runHook('ended', call, () => hook(call, outcome, calleeReason));
  }

  /** A hook that fails is logged and passed over: a side feature never keeps a call from ending. */
  private async runHook(stage: 'answered' | 'joined' | 'ending' | 'ended', call: LiveCall, run: () => unknown) {
    try {
      await run();
    } catch (error) {
      call.log.warn({ err: error, stage }, 'a call end hook failed');
    }
  }

  /** Ends every call here (shutdown): answered ones as completed, the others as failed. */
  async endAll(reason: string) {
    await Promise.all(this.all().map((call) => this.end(call, call.answeredAt ? 'completed' : 'failed', reason)));
  }

  /** Tells the Voxline user on side `to` of the call, on their own record, that the other side pressed keys. */
  tellKeysPressed(call: LiveCall, to: 'caller' | 'callee', digits: string) {
    const record = to === 'caller' ? (call.userId ? { userId: call.userId, id: call.id } : null) : call.inbound;
    if (record) this.deps.hub.send(record.userId, { type: 'call.dtmf', callId: record.id, digits });
  }

  sendToCaller(call: LiveCall, message: ServerMessage) {
    if (call.userId) this.deps.hub.send(call.userId, message);
  }

  /** Runs `run` after `ms`, unless the call ends first. */
  after(call: LiveCall, ms: number, run: () => void) {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      run();
    }, ms);
    call.timers.add(timer);
  }
}
