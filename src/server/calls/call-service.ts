import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { PlaceCallBody, PlaceCallResult } from '../../common/api/calls';
import type { SessionUser } from '../../common/api/session';
import { NARROWBAND_RATE, WIDEBAND_RATE, type CallOutcome, type CallSampleRate } from '../../common/calls';
import { toE164 } from '../../common/phone';
import type { ServerMessage } from '../../common/realtime';
import { defaultVoiceSettings, isDefaultVoice, type VoiceSettings } from '../../common/voice';
import type { Bus } from '../bus/bus';
import { InstanceLink } from '../bus/instance-link';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../http/app-error';
import { BrowserLeg } from '../media/browser-leg';
import { BrowserRelay } from '../media/browser-relay';
import { CallerVoice } from '../media/caller-voice';
import { EchoParty } from '../media/echo-party';
import type { CallLeg } from '../media/leg';
import { MediaBridge } from '../media/media-bridge';
import { MediaExchange } from '../media/media-exchange';
import { ProviderLeg } from '../media/provider-leg';
import { RemoteBrowserLeg } from '../media/remote-browser-leg';
import { phoneNumbers } from '../numbers/schema';
import { assertMinutesLeft, currentPlan, msUntilMinutesRunOut } from '../plans/service';
import { getPreferences } from '../preferences/service';
import { TelephonyError, type ProviderCallEvent, type ProviderCalls, type TelephonyProvider } from '../providers/telephony/telephony-provider';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { checkAgainstPlan, getVoiceSettings } from '../voice/service';
import { finaliseCall, findCall, markAnswered, markRinging, toCallRecord } from './call-records';
import { calls } from './schema';
import type { CallTiming } from './timing';

/** A call the telephony provider carries (TELEPHONY=vonage), as far as this server knows it. */
interface ProviderCall {
  /** The provider's id for the call, once it has accepted it. */
  id: string | null;
  /** SHA-256 of the media socket's one-time token, until a socket uses it. */
  mediaTokenHash: string | null;
  mediaTokenExpiresAt: number;
  /** The provider has ended the call, or has been asked to hang it up. */
  settled: boolean;
}

interface LiveCall {
  id: string;
  /**
   * The caller, whose record this call is; null when the caller is outside Voxline (the virtual
   * carrier's simulated caller, a provider's inbound call): the call then has only the callee's record.
   */
  userId: string | null;
  sampleRate: CallSampleRate;
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
  voice: CallerVoice | null;
  /** When the call rings a Voxline user: the callee's own record of it. */
  inbound: InboundCall | null;
}

/** The callee's side of a call between Voxline users (their inbound record). */
interface InboundCall {
  id: string;
  userId: string;
  sampleRate: CallSampleRate;
  outbound: LiveCall;
  /** The tab that answered (its id, on whichever instance holds it): the first one wins. */
  answeredBy: string | null;
  muted: boolean;
}

export interface PlaceCallOptions {
  /** Instead of the caller's saved settings (the compatibility route sends its own). */
  voiceSettings?: VoiceSettings;
}

/**
 * What one instance asks of the one holding a call (calls live in the memory of the instance that
 * placed or rang them; their records name it): the user's tab or media socket is on the asker.
 */
type CallRequest =
  | { op: 'answer'; userId: string; callId: string; tabId: string }
  | { op: 'reject' | 'hangup' | 'signed-out'; userId: string; callId: string }
  | { op: 'mute'; userId: string; callId: string; muted: boolean }
  | { op: 'voice'; userId: string; settings: VoiceSettings }
  | { op: 'media.open'; userId: string; callId: string; relayId: string; relayInstance: string }
  | { op: 'media.closed'; relayId: string; reason: string }
  | { op: 'provider.event'; providerCallId: string; event: ProviderCallEvent };

/** Why a media socket cannot join a call: the websocket close code and reason it gets. */
type AttachRefusal = { code: 4404 | 4409; reason: string };

const NO_CALL: AttachRefusal = { code: 4404, reason: 'No such call in progress' };
const AUDIO_TAKEN: AttachRefusal = { code: 4409, reason: 'This call already has its audio connected' };

/** Why a call ended when a participant's session did: for them, and for the other side. */
const SIGNED_OUT = { own: 'You were signed out', other: 'The other person was signed out' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who rings when a call reaches a Voxline user's number. */
export type RingResult = 'ringing' | 'busy' | 'unavailable';

/** What the provider should do with a call arriving at one of our numbers. */
export type InboundAnswer =
  | { action: 'connect'; callId: string; mediaUrl: string; eventUrl: string }
  | { action: 'say'; message: string };

/** What callers from outside hear when the call cannot go on (a provider plays it to them). */
const OUTSIDE_CALLER_MESSAGES: Partial<Record<CallOutcome, string>> = {
  unavailable: 'The person you are calling is not taking calls right now. Please try again later.',
  busy: 'The person you are calling is on another call. Please try again later.',
  'no-answer': 'The person you are calling did not answer. Please try again later.',
  rejected: 'The person you are calling cannot take your call right now. Goodbye.',
};

/** How long a shutdown waits for the provider to confirm hang-ups. */
const SHUTDOWN_HANGUP_WAIT_MS = 5_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface CallServiceDependencies {
  db: Database;
  hub: RealtimeHub;
  /** Reaches the other instances: calls whose tabs or media sockets they hold. */
  bus: Bus;
  telephony: TelephonyProvider;
  timing: CallTiming;
  soundTestNumber: string;
  /** The http(s) address the telephony provider reaches this server at (its webhooks and media socket). */
  providerCallbackUrl: string;
  /** This server instance: open records carry it, so others can close them if it dies. */
  instanceId: string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * The one call model (CALLS.md) for calls this server carries: places them, routes `to`, joins
 * the legs through the media bridge, and ends every call exactly once, finalising its record and
 * telling the caller's tabs.
 */
export class CallService {
  private readonly live = new Map<string, LiveCall>();
  /** Provider media tokens (hashed) → call id. */
  private readonly mediaTokens = new Map<string, string>();
  private readonly pendingHangups = new Set<Promise<void>>();
  /** Inbound records of calls ringing or answered on this server, by id. */
  private readonly inbound = new Map<string, InboundCall>();
  /** Media sockets this instance holds for calls another instance carries, by relay id. */
  private readonly relays = new Map<string, { relay: BrowserRelay; holder: string; userId: string; callId: string }>();
  /** Legs of calls here whose browser's media socket another instance holds, by relay id. */
  private readonly remoteLegs = new Map<string, { leg: RemoteBrowserLeg; relayInstance: string }>();
  private readonly link: InstanceLink<CallRequest>;
  private readonly media: MediaExchange;

  constructor(private readonly deps: CallServiceDependencies) {
    this.link = new InstanceLink(deps.bus, deps.instanceId, (request) => this.act(request), deps.log);
    this.media = new MediaExchange(deps.bus, deps.instanceId);
    deps.hub.on('call.hangup', (user, message) => this.hangup(user.id, message.callId));
    deps.hub.on('call.mute', (user, message) => this.setMuted(user.id, message.callId, message.muted));
    deps.hub.on('call.answer', (user, message, tabId) => this.answerInbound(user.id, message.callId, tabId));
    deps.hub.on('call.reject', (user, message) => this.rejectInbound(user.id, message.callId));
  }

  /** Lets the other instances reach the calls this one holds. */
  async start() {
    await Promise.all([this.link.start(), this.media.start()]);
  }

  async place(user: SessionUser, body: PlaceCallBody, options: PlaceCallOptions = {}): Promise<PlaceCallResult> {
    const { db } = this.deps;
    const to = toE164(body.to.startsWith('+') ? body.to : `+${body.to}`);
    if (!to) throw AppError.badRequest('Enter a valid phone number to call', 'to');
    const [from] = await db
      .select({ phoneNumber: phoneNumbers.phoneNumber })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.userId, user.id), eq(phoneNumbers.phoneNumber, body.from), eq(phoneNumbers.status, 'rented')));
    if (!from) throw new AppError(400, 'no_phone_number', 'No phone number available', 'from');

    const preferences = await getPreferences(db, user.id);
    const { tier } = await currentPlan(db, user.id);
    const voice = checkAgainstPlan(options.voiceSettings ?? (await getVoiceSettings(db, user.id)), tier);
    const soundTest = to === this.deps.soundTestNumber;
    const [owner] = soundTest ? [] : await db.select({ userId: phoneNumbers.userId }).from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, to));
    // CALLS.md: only calls over the telephony network use the plan's minutes.
    const metered = !soundTest && !owner;
    if (metered) await assertMinutesLeft(db, user.id);
    let row: typeof calls.$inferSelect;
    try {
      [row] = (await db
        .insert(calls)
        .values({
          conversationId: crypto.randomUUID(),
          userId: user.id,
          direction: 'outbound',
          fromNumber: from.phoneNumber,
          toNumber: to,
          state: 'dialing',
          metered,
          hiddenFromHistory: !preferences.callHistory,
          voiceSettings: isDefaultVoice(voice.effective) ? null : voice.effective,
          instanceId: this.deps.instanceId,
        })
        .returning()) as [typeof calls.$inferSelect];
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'call_in_progress', 'Please end the current call before starting a new one');
      throw error;
    }

    const call = this.newLiveCall(row.id, user.id, preferences.dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE);
    call.voiceSettings = voice.effective;
    call.metered = metered;
    this.live.set(call.id, call);
    this.after(call, this.deps.timing.mediaConnectTimeoutMs, () => {
      if (!call.caller) void this.end(call, 'failed', 'Your browser did not connect the call audio');
    });

    if (soundTest) {
      await this.answer(call, new EchoParty(call.sampleRate, this.deps.timing.echoDelayMs));
    } else if (owner) {
      await this.ringVoxlineUser(call, owner.userId, row);
    } else {
      await this.routeOutside(call, from.phoneNumber, to);
    }

    const [current] = await db.select().from(calls).where(eq(calls.id, call.id));
    return {
      call: toCallRecord(current ?? row),
      mediaPath: `/api/v1/calls/${call.id}/media`,
      sampleRate: call.sampleRate,
      ...(voice.refusal ? { voiceNotice: voice.refusal } : {}),
    };
  }

  /**
   * A call participant's browser connects the call's audio: the caller, or the callee once
   * answered. A socket for a call that another instance holds is relayed to it over the bus.
   */
  async attachBrowser(user: SessionUser, callId: string, socket: WebSocket) {
    const attached = this.attachLeg(user.id, callId, (sampleRate) => new BrowserLeg(socket, sampleRate));
    if (attached === 'attached') return;
    if (attached !== 'not-here') {
      socket.close(attached.code, attached.reason);
      return;
    }
    const holder = await this.holderOf(user.id, callId, NO_CALL.reason).catch(() => null);
    if (!holder) {
      socket.close(NO_CALL.code, NO_CALL.reason);
      return;
    }
    await this.relayBrowser(user.id, callId, socket, holder);
  }

  async hangup(userId: string, callId: string) {
    const inbound = this.inbound.get(callId);
    if (inbound && inbound.userId === userId) {
      const { outbound } = inbound;
      await this.end(outbound, outbound.answeredAt ? 'completed' : 'rejected', outbound.answeredAt ? null : 'The call was declined');
      return;
    }
    const call = this.live.get(callId);
    if (!call || call.userId !== userId) {
      // An ended call, or one on another instance: the record tells which.
      const holder = await this.holderOf(userId, callId, 'No such call');
      if (holder) await this.link.request(holder, { op: 'hangup', userId, callId });
      return;
    }
    await this.end(call, call.answeredAt ? 'completed' : 'cancelled', null);
  }

  /**
   * The session that opened a participant's media socket has ended (signed out, or the password
   * changed or reset elsewhere): the call ends as their hang-up would, saying why, on whichever
   * instance holds it. A socket relayed from here is let go without the "browser lost" notice, so
   * that the holder records this reason.
   */
  async endForSignOut(userId: string, callId: string) {
    try {
      const inbound = this.inbound.get(callId);
      if (inbound && inbound.userId === userId) {
        const { outbound } = inbound;
        await this.end(outbound, outbound.answeredAt ? 'completed' : 'rejected', SIGNED_OUT.other, SIGNED_OUT.own);
        return;
      }
      const call = this.live.get(callId);
      if (call && call.userId === userId) {
        await this.end(call, call.answeredAt ? 'completed' : 'cancelled', SIGNED_OUT.own, SIGNED_OUT.other);
        return;
      }
      const holder = this.letGoOfRelay(userId, callId) ?? (await this.holderOf(userId, callId, NO_CALL.reason));
      if (holder) await this.link.request(holder, { op: 'signed-out', userId, callId });
    } catch (error) {
      this.deps.log.warn({ err: error, callId }, 'could not end the call of a session that ended');
    }
  }

  /** Forgets the relay of the user's media socket for `callId`, if this instance holds one: answers the call's holder. */
  private letGoOfRelay(userId: string, callId: string): string | null {
    for (const [relayId, relayed] of this.relays) {
      if (relayed.userId !== userId || relayed.callId !== callId) continue;
      this.relays.delete(relayId);
      relayed.relay.close(SIGNED_OUT.own);
      return relayed.holder;
    }
    return null;
  }

  async setMuted(userId: string, callId: string, muted: boolean) {
    const inbound = this.inbound.get(callId);
    if (inbound && inbound.userId === userId) {
      inbound.muted = muted;
      inbound.outbound.bridge?.setCalleeMuted(muted);
      return;
    }
    const call = this.live.get(callId);
    if (!call) return this.forward(userId, callId, 'No such call in progress', { op: 'mute', userId, callId, muted });
    if (call.userId !== userId) throw AppError.notFound('No such call in progress');
    call.muted = muted;
    call.bridge?.setCallerMuted(muted);
  }

  /**
   * The caller saved new voice settings: their call in progress takes them at once, as far as the
   * plan allows, on whichever instance holds it; a notice tells them what the plan refuses.
   */
  async updateVoiceSettings(userId: string, settings: VoiceSettings) {
    await this.applyVoiceSettings(userId, settings);
    const elsewhere = await this.deps.db
      .select({ instanceId: calls.instanceId })
      .from(calls)
      .where(and(eq(calls.userId, userId), eq(calls.direction, 'outbound'), ne(calls.state, 'ended'), ne(calls.instanceId, this.deps.instanceId)));
    const holders = new Set(elsewhere.flatMap(({ instanceId }) => (instanceId ? [instanceId] : [])));
    await Promise.all(
      [...holders].map((holder) =>
        this.link.request(holder, { op: 'voice', userId, settings }).catch((error: unknown) => this.deps.log.warn({ err: error, userId }, 'could not give the call in progress the new voice settings')),
      ),
    );
  }

  private async applyVoiceSettings(userId: string, settings: VoiceSettings) {
    const mine = [...this.live.values()].filter((call) => call.userId === userId && !call.ending);
    if (mine.length === 0) return;
    const { tier } = await currentPlan(this.deps.db, userId);
    const voice = checkAgainstPlan(settings, tier);
    for (const call of mine) {
      call.voiceSettings = voice.effective;
      call.voice?.update(voice.effective);
    }
    if (voice.refusal) this.deps.hub.send(userId, { type: 'notice', code: 'voice_plan', message: voice.refusal });
  }

  /** Takes a provider media socket's one-time token: answers its call's id the first time, then null. */
  claimProviderMedia(token: string): string | null {
    const hash = sha256(token);
    const callId = this.mediaTokens.get(hash);
    if (!callId) return null;
    this.mediaTokens.delete(hash);
    const call = this.live.get(callId);
    if (!call?.provider || call.ending || call.provider.mediaTokenHash !== hash) return null;
    call.provider.mediaTokenHash = null;
    return Date.now() <= call.provider.mediaTokenExpiresAt ? call.id : null;
  }

  /** The provider connects the far side's audio, which it does once the far side has answered. */
  async attachProviderMedia(callId: string, socket: WebSocket) {
    const call = this.live.get(callId);
    const outsideCaller = call?.userId === null;
    if (!call || call.ending || (outsideCaller ? call.caller : call.callee)) {
      socket.close(4404, 'No such call waiting for audio');
      return;
    }
    const leg = new ProviderLeg(socket);
    if (outsideCaller) {
      // An inbound call: the provider's socket is the caller, connected while the callee rings.
      call.caller = leg;
      leg.onClose((reason) => void this.end(call, call.answeredAt ? 'completed' : 'cancelled', leg.dropped ? reason : null));
      this.joinIfReady(call);
      return;
    }
    call.callee = leg;
    leg.onClose((reason) => {
      if (!call.answeredAt) void this.end(call, 'failed', leg.dropped ? reason : 'The call ended before it connected');
      else void this.end(call, 'completed', leg.dropped ? reason : null);
    });
    await this.markCallAnswered(call);
    this.joinIfReady(call);
  }

  /**
   * A status event from the provider's webhook, already authenticated, on whichever instance the
   * load balancer chose: an inbound call's own events go to the application's one event URL, so
   * they can reach an instance other than the one holding the call, which then gets them.
   * `named` is our call id when the event URL carries it. Events of no open call are dropped.
   */
  async receiveProviderEvent(providerCallId: string, event: ProviderCallEvent, named?: string) {
    const callId = named ?? this.callIdForProvider(providerCallId);
    if (callId && this.live.has(callId)) return this.applyProviderEvent(callId, providerCallId, event);
    if (named !== undefined && !UUID.test(named)) return;
    const [open] = await this.deps.db
      .select({ instanceId: calls.instanceId })
      .from(calls)
      .where(and(eq(calls.providerCallId, providerCallId), ne(calls.state, 'ended'), named === undefined ? undefined : eq(calls.id, named)))
      .limit(1);
    if (!open?.instanceId || open.instanceId === this.deps.instanceId) return;
    await this.link.request(open.instanceId, { op: 'provider.event', providerCallId, event });
  }

  /** A status event from the provider for one of the calls this instance holds. */
  private async applyProviderEvent(callId: string, providerCallId: string, event: ProviderCallEvent) {
    const call = this.live.get(callId);
    if (!call?.provider || call.ending) return;
    // Events of the call's other legs (the provider's side of our websocket) carry another id.
    if (call.provider.id !== null && call.provider.id !== providerCallId) return;
    if (call.userId === null) {
      // An inbound call: the provider answered it for us; only the caller hanging up matters.
      if (event.type !== 'ended') return;
      call.provider.settled = true;
      await this.end(call, call.answeredAt ? 'completed' : 'cancelled', null);
      return;
    }
    switch (event.type) {
      case 'ringing':
        return;
      case 'answered':
        if (call.answeredAt) return;
        await this.markCallAnswered(call);
        this.after(call, this.deps.timing.mediaConnectTimeoutMs, () => {
          if (!call.callee) void this.end(call, 'failed', 'The phone network did not connect the call audio');
        });
        return;
      case 'ended': {
        call.provider.settled = true;
        const connected = call.answeredAt !== null || event.outcome !== 'completed';
        await this.end(call, connected ? event.outcome : 'failed', connected ? event.reason : 'The call ended before it connected');
        return;
      }
    }
  }

  /**
   * Ends every call this server carries (shutdown): records finalised, callers told, provider
   * calls hung up; the instances holding calls whose media sockets this one relays are told too.
   */
  async endAll(reason: string) {
    const told = [...this.relays].map(([relayId, { relay, holder }]) => {
      this.relays.delete(relayId);
      relay.close(reason, 1001);
      return this.link.notify(holder, { op: 'media.closed', relayId, reason }).catch(() => {});
    });
    await Promise.all([...this.live.values()].map((call) => this.end(call, call.answeredAt ? 'completed' : 'failed', reason)));
    await Promise.all(told);
    if (this.pendingHangups.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.pendingHangups]), new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_HANGUP_WAIT_MS)))]);
      clearTimeout(timer);
    }
    await Promise.all([this.link.stop(), this.media.stop()]);
  }

  /**
   * After the instance registry's sweep: the users whose call records it closed (their instance
   * was killed or crashed) are told on every tab, and media relayed to or from an instance that
   * stopped without a word is cut, which ends the calls here that it carried.
   */
  forgetStoppedInstances(running: ReadonlySet<string>, closed: (typeof calls.$inferSelect)[]) {
    for (const row of closed) {
      this.deps.hub.send(row.userId, {
        type: 'call.ended',
        callId: row.id,
        outcome: row.outcome ?? 'failed',
        durationSec: row.durationSec ?? 0,
        ...(row.reason ? { reason: row.reason } : {}),
      });
    }
    for (const [relayId, { relay, holder }] of this.relays) {
      if (running.has(holder)) continue;
      this.relays.delete(relayId);
      relay.close('The server carrying the call stopped', 1011);
    }
    for (const [relayId, { leg, relayInstance }] of this.remoteLegs) {
      if (running.has(relayInstance)) continue;
      this.remoteLegs.delete(relayId);
      leg.close('The server holding the other browser stopped');
    }
  }

  /**
   * CALLS.md routing rule 2: a number rented by a Voxline user rings that user's listening tabs.
   * The callee gets a record of their own (inbound) in the same conversation.
   */
  private async ringVoxlineUser(call: LiveCall, calleeUserId: string, outbound: typeof calls.$inferSelect) {
    const result = await this.ringCallee(call, calleeUserId, outbound);
    if (result === 'unavailable') return this.end(call, 'unavailable', 'Nobody is taking calls on that number right now');
    if (result === 'busy') return this.end(call, 'busy', 'The line is busy');
    await markRinging(this.deps.db, call.id);
    this.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'ringing' });
  }

  /**
   * A call from outside Voxline to a user's number: the virtual carrier's simulated caller, or a
   * provider's inbound call. Only the callee has a record of it. `caller` is the far side's leg, or
   * null while a provider has yet to connect it.
   */
  async ringFromOutside(calleeUserId: string, from: string, to: string, caller: CallLeg | null, provider: ProviderCall | null = null): Promise<{ result: RingResult; callId: string }> {
    const call: LiveCall = { ...this.newLiveCall(randomUUID(), null, WIDEBAND_RATE), caller, provider };
    if (caller) caller.onClose(() => void this.end(call, call.answeredAt ? 'completed' : 'cancelled', null));
    const result = await this.ringCallee(call, calleeUserId, { conversationId: randomUUID(), fromNumber: from, toNumber: to });
    if (result === 'ringing') this.live.set(call.id, call);
    else await this.end(call, result, null);
    return { result, callId: call.id };
  }

  /** Our id of the call the provider knows by `providerCallId`, if it is on this server. */
  private callIdForProvider(providerCallId: string): string | null {
    for (const call of this.live.values()) if (call.provider?.id === providerCallId) return call.id;
    return null;
  }

  /** Whether the user has a call ringing or in progress on this server, in either direction. */
  hasCallInProgress(userId: string): boolean {
    for (const call of this.live.values()) if (call.userId === userId) return true;
    for (const inbound of this.inbound.values()) if (inbound.userId === userId) return true;
    return false;
  }

  /**
   * The provider asks what to do with a call arriving at `to` (its answer webhook): connect it to
   * our media socket while the owner's tabs ring, or say why it cannot go on.
   */
  async answerProviderInbound(providerCallId: string, from: string, to: string): Promise<InboundAnswer> {
    const { db, timing, telephony } = this.deps;
    const [owner] = await db
      .select({ userId: phoneNumbers.userId })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.phoneNumber, to), eq(phoneNumbers.status, 'rented')));
    if (!owner) return { action: 'say', message: 'The number you have called is not in service.' };
    const { token, provider } = this.newProviderCall(timing.ringTimeoutMs + timing.mediaConnectTimeoutMs);
    provider.id = providerCallId;
    // Settled until ringing: a call that cannot ring is answered with a message, not hung up.
    provider.settled = true;
    const { result, callId } = await this.ringFromOutside(owner.userId, from, to, null, provider);
    if (result !== 'ringing') return { action: 'say', message: OUTSIDE_CALLER_MESSAGES[result] ?? 'Your call cannot be connected.' };
    provider.settled = false;
    this.mediaTokens.set(provider.mediaTokenHash!, callId);
    const call = this.live.get(callId);
    if (call) {
      this.after(call, timing.mediaConnectTimeoutMs, () => {
        if (!call.caller) void this.end(call, 'failed', 'The phone network did not connect the call audio');
      });
    }
    const base = this.providerBase(telephony.name);
    return { action: 'connect', callId, mediaUrl: `${base.replace(/^http/, 'ws')}/media?token=${token}`, eventUrl: `${base}/events?call=${callId}` };
  }

  /**
   * Rings the callee's listening tabs. One who cannot take the call (not listening, already on a
   * call) keeps it in their history as missed.
   */
  private async ringCallee(call: LiveCall, calleeUserId: string, from: { conversationId: string; fromNumber: string; toNumber: string }): Promise<RingResult> {
    const { db, hub, timing } = this.deps;
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
    const missed = async (outcome: CallOutcome, reason: string) => {
      await db.insert(calls).values({ ...record, state: 'ended', outcome, reason, endedAt: new Date(), durationSec: 0 });
    };

    if (!(await hub.isListening(calleeUserId))) {
      await missed('unavailable', 'You were not taking calls');
      return 'unavailable';
    }
    let inboundRow: typeof calls.$inferSelect;
    try {
      [inboundRow] = (await db.insert(calls).values({ ...record, state: 'ringing', instanceId: this.deps.instanceId }).returning()) as [typeof calls.$inferSelect];
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await missed('busy', 'You were on another call');
      return 'busy';
    }

    const inbound: InboundCall = {
      id: inboundRow.id,
      userId: calleeUserId,
      sampleRate: calleePreferences.dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE,
      outbound: call,
      answeredBy: null,
      muted: false,
    };
    call.inbound = inbound;
    this.inbound.set(inbound.id, inbound);
    hub.sendToListeners(calleeUserId, { type: 'call.incoming', callId: inbound.id, from: from.fromNumber, to: from.toNumber, at: inboundRow.startedAt.toISOString() });
    this.after(call, timing.ringTimeoutMs, () => {
      if (!call.answeredAt) void this.end(call, 'no-answer', 'Nobody answered');
    });
    return 'ringing';
  }

  /**
   * A callee's tab answers, on any instance: the first tab wins, the others stop ringing. Every
   * answer reaches the instance holding the call, and the record's move from ringing to answered
   * is made once, in the database, so that no two tabs both win.
   */
  private async answerInbound(userId: string, callId: string, tabId: string) {
    const inbound = this.inbound.get(callId);
    if (!inbound) return this.forward(userId, callId, 'This call is no longer ringing', { op: 'answer', userId, callId, tabId });
    if (inbound.userId !== userId || inbound.outbound.ending) throw AppError.notFound('This call is no longer ringing');
    if (inbound.answeredBy) throw AppError.conflict('This call was answered in another tab');
    inbound.answeredBy = tabId;
    const { outbound } = inbound;
    const at = new Date();
    const [won] = await this.deps.db
      .update(calls)
      .set({ state: 'answered', answeredAt: at })
      .where(and(eq(calls.id, inbound.id), eq(calls.state, 'ringing')))
      .returning({ id: calls.id });
    if (!won) throw AppError.notFound('This call is no longer ringing');
    await this.markCallAnswered(outbound, at);
    const answeredAt = at.toISOString();
    this.deps.hub.sendToTab(userId, tabId, { type: 'call.state', callId: inbound.id, state: 'answered', answeredAt });
    this.deps.hub.sendToListeners(userId, { type: 'call.ended', callId: inbound.id, outcome: 'completed', durationSec: 0, reason: 'Answered in another tab' }, tabId);
    // The answering tab connects its audio next; without it the call cannot go on.
    this.after(outbound, this.deps.timing.mediaConnectTimeoutMs, () => {
      if (!outbound.callee) void this.end(outbound, 'failed', 'The call could not connect its audio');
    });
  }

  private async rejectInbound(userId: string, callId: string) {
    const inbound = this.inbound.get(callId);
    if (!inbound) return this.forward(userId, callId, 'This call is no longer ringing', { op: 'reject', userId, callId });
    if (inbound.userId !== userId) throw AppError.notFound('This call is no longer ringing');
    if (inbound.answeredBy) return;
    await this.end(inbound.outbound, 'rejected', 'The call was declined');
  }

  /**
   * Joins a participant's media leg to their call on this instance: the caller's, or the callee's
   * once a tab answered. 'not-here' when this instance does not hold the call.
   */
  private attachLeg(userId: string, callId: string, makeLeg: (sampleRate: CallSampleRate) => CallLeg): 'attached' | 'not-here' | AttachRefusal {
    const inbound = this.inbound.get(callId);
    if (inbound) {
      const { outbound } = inbound;
      if (inbound.userId !== userId || !inbound.answeredBy || outbound.ending) return NO_CALL;
      if (outbound.callee) return AUDIO_TAKEN;
      const leg = makeLeg(inbound.sampleRate);
      outbound.callee = leg;
      leg.onClose(() => void this.end(outbound, 'completed', 'The connection to the other browser was lost'));
      this.joinIfReady(outbound);
      return 'attached';
    }
    const call = this.live.get(callId);
    if (!call) return 'not-here';
    if (call.userId !== userId || call.ending) return NO_CALL;
    if (call.caller) return AUDIO_TAKEN;
    const leg = makeLeg(call.sampleRate);
    call.caller = leg;
    leg.onClose(() => void this.end(call, call.answeredAt ? 'completed' : 'cancelled', 'The connection to your browser was lost'));
    this.joinIfReady(call);
    return 'attached';
  }

  /**
   * Passes a media socket to the instance holding its call, which joins it as a RemoteBrowserLeg.
   * The socket's frames flow only once that instance has taken it.
   */
  private async relayBrowser(userId: string, callId: string, socket: WebSocket, holder: string) {
    const relayId = randomUUID();
    const relay = new BrowserRelay(socket, this.media, holder, relayId);
    this.relays.set(relayId, { relay, holder, userId, callId });
    relay.onClose((reason) => {
      if (!this.relays.delete(relayId)) return;
      this.link.notify(holder, { op: 'media.closed', relayId, reason }).catch((error: unknown) => this.deps.log.warn({ err: error, callId }, 'could not tell the server carrying the call that its audio went away'));
    });
    try {
      const { sampleRate } = (await this.link.request(holder, { op: 'media.open', userId, callId, relayId, relayInstance: this.deps.instanceId })) as { sampleRate: CallSampleRate };
      relay.start(sampleRate);
    } catch (error) {
      this.relays.delete(relayId);
      const refused = error instanceof AppError ? error : null;
      relay.close(refused?.message ?? 'The call audio could not be connected', refused?.statusCode === 409 ? AUDIO_TAKEN.code : refused?.statusCode === 404 ? NO_CALL.code : 1011);
    }
  }

  /** Another instance holds a media socket for a call here (relayBrowser): joins it to the call. */
  private openRemoteMedia({ userId, callId, relayId, relayInstance }: Extract<CallRequest, { op: 'media.open' }>) {
    let leg: RemoteBrowserLeg | undefined;
    const attached = this.attachLeg(userId, callId, (sampleRate) => {
      const remote = new RemoteBrowserLeg(this.media, relayInstance, relayId, sampleRate);
      this.remoteLegs.set(relayId, { leg: remote, relayInstance });
      remote.onClose((reason) => {
        if (!this.remoteLegs.delete(relayId)) return;
        this.link.notify(relayInstance, { op: 'media.closed', relayId, reason }).catch((error: unknown) => this.deps.log.warn({ err: error, callId }, 'could not tell the server holding the browser that the call ended'));
      });
      leg = remote;
      return remote;
    });
    if (attached === 'not-here' || (attached !== 'attached' && attached.code === NO_CALL.code)) throw AppError.notFound(NO_CALL.reason);
    if (attached !== 'attached') throw AppError.conflict(attached.reason);
    return { sampleRate: leg!.sampleRate };
  }

  /** The other end of a relayed media socket went away: the browser, or the call's leg. */
  private mediaClosedElsewhere(relayId: string, reason: string) {
    const relayed = this.relays.get(relayId);
    if (relayed) {
      this.relays.delete(relayId);
      relayed.relay.close(reason);
    }
    const remote = this.remoteLegs.get(relayId);
    if (remote) {
      this.remoteLegs.delete(relayId);
      remote.leg.close(reason);
    }
  }

  /** Does what another instance asks of a call this one holds. */
  private act(request: CallRequest): unknown {
    switch (request.op) {
      case 'answer':
        return this.answerInbound(request.userId, request.callId, request.tabId);
      case 'reject':
        return this.rejectInbound(request.userId, request.callId);
      case 'hangup':
        return this.hangup(request.userId, request.callId);
      case 'signed-out':
        return this.endForSignOut(request.userId, request.callId);
      case 'mute':
        return this.setMuted(request.userId, request.callId, request.muted);
      case 'voice':
        return this.applyVoiceSettings(request.userId, request.settings);
      case 'media.open':
        return this.openRemoteMedia(request);
      case 'media.closed':
        return this.mediaClosedElsewhere(request.relayId, request.reason);
      case 'provider.event': {
        const callId = this.callIdForProvider(request.providerCallId);
        return callId ? this.applyProviderEvent(callId, request.providerCallId, request.event) : undefined;
      }
    }
  }

  /**
   * The instance holding the user's call `callId`, when it is another one (its record names it);
   * null when the call has ended or was this instance's. Throws `missing` when the user has no such call.
   */
  private async holderOf(userId: string, callId: string, missing: string): Promise<string | null> {
    const row = UUID.test(callId) ? await findCall(this.deps.db, userId, callId) : undefined;
    if (!row) throw AppError.notFound(missing);
    return row.state !== 'ended' && row.instanceId && row.instanceId !== this.deps.instanceId ? row.instanceId : null;
  }

  /** Acts on a call this instance does not hold, on the instance that does. */
  private async forward(userId: string, callId: string, missing: string, request: CallRequest) {
    const holder = await this.holderOf(userId, callId, missing);
    if (!holder) throw AppError.notFound(missing);
    await this.link.request(holder, request);
  }

  private async routeOutside(call: LiveCall, from: string, to: string) {
    const providerCalls = this.deps.telephony.calls;
    if (providerCalls) {
      await this.placeThroughProvider(call, providerCalls, from, to);
      return;
    }
    if (this.deps.telephony.name !== 'local') {
      await this.end(call, 'failed', 'Calls to outside numbers are not available with this telephony provider');
      return;
    }
    await markRinging(this.deps.db, call.id);
    this.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'ringing' });
    // The virtual carrier answers outside numbers after a moment with an echo.
    this.after(call, this.deps.timing.outsideAnswerDelayMs, () => void this.answer(call, new EchoParty(call.sampleRate, this.deps.timing.echoDelayMs)));
    this.after(call, this.deps.timing.ringTimeoutMs, () => {
      if (!call.answeredAt) void this.end(call, 'no-answer', 'Nobody answered');
    });
  }

  /**
   * Rings the number through the provider, whose media socket joins the call once the far side
   * answers. The socket's URL carries a random one-time token; the event URL names the call.
   */
  private async placeThroughProvider(call: LiveCall, providerCalls: ProviderCalls, from: string, to: string) {
    const { timing, telephony } = this.deps;
    const { token, provider } = this.newProviderCall(timing.ringTimeoutMs + timing.providerGraceMs + timing.mediaConnectTimeoutMs);
    call.provider = provider;
    this.mediaTokens.set(provider.mediaTokenHash!, call.id);

    await markRinging(this.deps.db, call.id);
    this.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'ringing' });
    // The provider gives up ringing itself and says so; this ends a call whose event never came.
    this.after(call, timing.ringTimeoutMs + timing.providerGraceMs, () => {
      if (!call.answeredAt) void this.end(call, 'no-answer', 'Nobody answered');
    });

    const base = this.providerBase(telephony.name);
    let providerCallId: string;
    try {
      ({ providerCallId } = await providerCalls.place({
        callId: call.id,
        from,
        to,
        mediaUrl: `${base.replace(/^http/, 'ws')}/media?token=${token}`,
        eventUrl: `${base}/events?call=${call.id}`,
        ringTimeoutSec: timing.ringTimeoutMs / 1000,
      }));
    } catch (error) {
      provider.settled = true;
      const reason = error instanceof TelephonyError ? error.message : 'The phone network could not be reached';
      await this.end(call, 'failed', reason);
      throw AppError.providerFailed(reason, error);
    }
    provider.id = providerCallId;
    await this.deps.db.update(calls).set({ providerCallId }).where(eq(calls.id, call.id));
    // The caller hung up while the provider was still accepting the call.
    if (call.ending && !provider.settled) this.hangUpAtProvider(call, provider);
  }

  private async answer(call: LiveCall, callee: CallLeg) {
    if (call.ending) return;
    call.callee = callee;
    callee.onClose(() => void this.end(call, 'completed', null));
    await this.markCallAnswered(call);
    this.joinIfReady(call);
  }

  /** The far side has picked up: duration counts from here. */
  private async markCallAnswered(call: LiveCall, at = new Date()) {
    if (call.ending || call.answeredAt) return;
    call.answeredAt = at;
    if (call.userId) await markAnswered(this.deps.db, call.id, call.answeredAt);
    if (call.metered && call.userId) {
      const ms = await msUntilMinutesRunOut(this.deps.db, call.userId, call.answeredAt);
      if (ms !== null) this.after(call, ms, () => void this.end(call, 'completed', 'Monthly minutes used up'));
    }
    this.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'answered', answeredAt: call.answeredAt.toISOString() });
  }

  /**
   * Asks the provider to hang up (PROVIDERS.md: not by closing the websocket alone), after saying
   * `message` to the far side when there is one. Not awaited by the caller's hang-up; a shutdown
   * waits for it.
   */
  private hangUpAtProvider(call: LiveCall, provider: ProviderCall, message?: string) {
    const providerCalls = this.deps.telephony.calls;
    if (!providerCalls || !provider.id) return;
    provider.settled = true;
    const hangup: Promise<void> = (message ? providerCalls.sayAndHangUp(provider.id, message) : providerCalls.hangup(provider.id))
      .catch((error: unknown) => this.deps.log.warn({ err: error, callId: call.id }, 'the telephony provider did not hang up the call'))
      .finally(() => this.pendingHangups.delete(hangup));
    this.pendingHangups.add(hangup);
  }

  private joinIfReady(call: LiveCall) {
    if (!call.caller || !call.callee || call.bridge) return;
    const userId = call.userId;
    // The voice changer works on a Voxline caller's voice only (CALLS.md).
    if (userId) {
      call.voice = new CallerVoice(call.sampleRate, call.voiceSettings, (reason) => {
        this.deps.log.warn({ callId: call.id, reason }, 'the voice changer failed; the caller is silenced');
        this.deps.hub.send(userId, { type: 'notice', code: 'voice_failed', message: reason });
      });
    }
    call.bridge = new MediaBridge(call.caller, call.callee, call.voice);
    call.bridge.setCallerMuted(call.muted);
    call.bridge.setCalleeMuted(call.inbound?.muted ?? false);
  }

  /** `calleeReason`: what the callee's record says, when a Voxline user answered and it differs. */
  private async end(call: LiveCall, outcome: CallOutcome, reason: string | null, calleeReason = reason) {
    if (call.ending) return;
    call.ending = true;
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
    this.live.delete(call.id);
    if (call.provider) {
      if (call.provider.mediaTokenHash) this.mediaTokens.delete(call.provider.mediaTokenHash);
      if (!call.provider.settled) this.hangUpAtProvider(call, call.provider, call.userId ? undefined : OUTSIDE_CALLER_MESSAGES[outcome]);
    }
    call.caller?.close(reason ?? 'Call ended');
    call.callee?.close(reason ?? 'Call ended');
    try {
      if (call.userId) {
        const row = await finaliseCall(this.deps.db, call.id, outcome, reason, new Date());
        this.sendToCaller(call, {
          type: 'call.ended',
          callId: call.id,
          outcome: row?.outcome ?? outcome,
          durationSec: row?.durationSec ?? 0,
          ...(reason ? { reason } : {}),
        });
      }
      this.deps.log.info({ callId: call.id, outcome }, 'call ended');
      if (call.inbound) await this.endInbound(call.inbound, outcome, calleeReason);
    } catch (error) {
      this.deps.log.warn({ err: error, callId: call.id }, 'call could not be finalised');
    }
  }

  /** The callee's record ends with the call; one never answered is a missed call in their history. */
  private async endInbound(inbound: InboundCall, outcome: CallOutcome, reason: string | null) {
    this.inbound.delete(inbound.id);
    const calleeReason = inbound.answeredBy ? reason : outcome === 'rejected' ? 'You declined the call' : outcome === 'cancelled' ? 'The caller hung up' : reason;
    const row = await finaliseCall(this.deps.db, inbound.id, inbound.answeredBy ? 'completed' : outcome, calleeReason, new Date());
    const message = { type: 'call.ended' as const, callId: inbound.id, outcome: row?.outcome ?? outcome, durationSec: row?.durationSec ?? 0, ...(calleeReason ? { reason: calleeReason } : {}) };
    if (inbound.answeredBy) this.deps.hub.sendToTab(inbound.userId, inbound.answeredBy, message);
    else this.deps.hub.sendToListeners(inbound.userId, message);
  }

  private newLiveCall(id: string, userId: string | null, sampleRate: CallSampleRate): LiveCall {
    return {
      id,
      userId,
      sampleRate,
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
      voice: null,
      inbound: null,
    };
  }

  /** A provider call whose media socket will carry a random one-time token, valid for `validMs`. */
  private newProviderCall(validMs: number): { token: string; provider: ProviderCall } {
    const token = randomBytes(32).toString('base64url');
    return { token, provider: { id: null, mediaTokenHash: sha256(token), mediaTokenExpiresAt: Date.now() + validMs, settled: false } };
  }

  /** Where the provider reaches this server's routes for it (webhooks, media socket). */
  private providerBase(name: string) {
    return `${this.deps.providerCallbackUrl.replace(/\/+$/, '')}/api/v1/providers/${name}`;
  }

  private sendToCaller(call: LiveCall, message: ServerMessage) {
    if (call.userId) this.deps.hub.send(call.userId, message);
  }

  private after(call: LiveCall, ms: number, run: () => void) {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      run();
    }, ms);
    call.timers.add(timer);
  }
}
