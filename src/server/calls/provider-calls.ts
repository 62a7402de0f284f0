import { createHash, randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { CallOutcome } from '../../common/calls';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { EchoParty } from '../media/echo-party';
import { ProviderLeg } from '../media/provider-leg';
import type { MediaMetrics } from '../metrics/media-meter';
import { rentedNumberOwner } from '../numbers/number-owners';
import { TelephonyError, type ProviderCallEvent, type ProviderCalls, type TelephonyProvider } from '../providers/telephony/telephony-provider';
import { markRinging } from './call-records';
import type { CallRouting } from './call-routing';
import type { LiveCall, LiveCalls, ProviderCall } from './live-calls';
import { calls } from './schema';
import type { CallTiming } from './timing';
import type { UserRinging } from './user-ringing';

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

export interface ProviderSideDependencies {
  db: Database;
  telephony: TelephonyProvider;
  timing: CallTiming;
  /** The http(s) address the telephony provider reaches this server at (its webhooks and media socket). */
  providerCallbackUrl: string;
  live: LiveCalls;
  ringing: UserRinging;
  routing: CallRouting;
  /** Counts the frames of the provider's media sockets. */
  media?: MediaMetrics;
}

/**
 * Calls on the phone network (docs/calls.md#routing, rule 3; docs/providers.md#vonage-voice):
 * places a call to an outside number (the virtual carrier's echo, or the provider), answers the
 * provider's inbound calls by ringing the number's owner, joins the provider's media socket to its
 * call once its one-time token checks out, follows the provider's status events, and hangs the
 * provider's side up when a call ends.
 */
export class ProviderSide {
  /** Provider media tokens (hashed) → call id. */
  private readonly mediaTokens = new Map<string, string>();
  private readonly pendingHangups = new Set<Promise<void>>();

  constructor(private readonly deps: ProviderSideDependencies) {
    deps.live.onEnding((call, outcome) => {
      if (!call.provider) return;
      if (call.provider.mediaTokenHash) this.mediaTokens.delete(call.provider.mediaTokenHash);
      if (!call.provider.settled) this.hangUpAtProvider(call, call.provider, call.userId ? undefined : OUTSIDE_CALLER_MESSAGES[outcome]);
    });
    deps.routing.on('provider.event', ({ providerCallId, event }) => {
      const callId = this.callIdForProvider(providerCallId);
      return callId ? this.applyEvent(callId, providerCallId, event) : undefined;
    });
  }

  /** A Voxline caller's call to a number outside Voxline. */
  async callOutside(call: LiveCall, from: string, to: string) {
    const { db, live, telephony, timing } = this.deps;
    if (telephony.calls) {
      await this.placeThroughProvider(call, telephony.calls, from, to);
      return;
    }
    if (telephony.name !== 'local') {
      await live.end(call, 'failed', 'Calls to outside numbers are not available with this telephony provider');
      return;
    }
    await markRinging(db, call.id);
    live.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'ringing' });
    // The virtual carrier answers outside numbers after a moment with an echo.
    live.after(call, timing.outsideAnswerDelayMs, () => void live.answer(call, new EchoParty(call.sampleRate, timing.echoDelayMs)));
    live.after(call, timing.ringTimeoutMs, () => {
      if (!call.answeredAt) void live.end(call, 'no-answer', 'Nobody answered');
    });
  }

  /** Takes a provider media socket's one-time token: answers its call's id the first time, then null. */
  claimMedia(token: string): string | null {
    const hash = sha256(token);
    const callId = this.mediaTokens.get(hash);
    if (!callId) return null;
    this.mediaTokens.delete(hash);
    const call = this.deps.live.get(callId);
    if (!call?.provider || call.ending || call.provider.mediaTokenHash !== hash) return null;
    call.provider.mediaTokenHash = null;
    return Date.now() <= call.provider.mediaTokenExpiresAt ? call.id : null;
  }

  /** The provider connects the far side's audio, which it does once the far side has answered. */
  async attachMedia(callId: string, socket: WebSocket) {
    const { live } = this.deps;
    const call = live.get(callId);
    const outsideCaller = call?.userId === null;
    if (!call || call.ending || (outsideCaller ? call.caller : call.callee)) {
      socket.close(4404, 'No such call waiting for audio');
      return;
    }
    const leg = new ProviderLeg(socket, this.deps.media?.stream('vonage'));
    call.log.info({ side: outsideCaller ? 'caller' : 'callee' }, 'phone network audio connected');
    leg.onDigit((digit) => live.tellKeysPressed(call, outsideCaller ? 'callee' : 'caller', digit));
    if (outsideCaller) {
      // An inbound call: the provider's socket is the caller, connected while the callee rings.
      call.caller = leg;
      leg.onClose((reason) => void live.end(call, call.answeredAt ? 'completed' : 'cancelled', leg.dropped ? reason : null));
      live.joinIfReady(call);
      return;
    }
    call.callee = leg;
    leg.onClose((reason) => {
      if (!call.answeredAt) void live.end(call, 'failed', leg.dropped ? reason : 'The call ended before it connected');
      else void live.end(call, 'completed', leg.dropped ? reason : null);
    });
    await live.markCallAnswered(call);
    live.joinIfReady(call);
  }

  /**
   * A status event from the provider's webhook, already authenticated, on whichever instance the
   * load balancer chose: an inbound call's own events go to the application's one event URL, so
   * they can reach an instance other than the one holding the call, which then gets them.
   * `named` is our call id when the event URL carries it. Events of no open call are dropped.
   */
  async receiveEvent(providerCallId: string, event: ProviderCallEvent, named?: string) {
    const callId = named ?? this.callIdForProvider(providerCallId);
    if (callId && this.deps.live.get(callId)) return this.applyEvent(callId, providerCallId, event);
    if (named !== undefined && !isUuid(named)) return;
    const [open] = await this.deps.db
      .select({ instanceId: calls.instanceId })
      .from(calls)
      .where(and(eq(calls.providerCallId, providerCallId), ne(calls.state, 'ended'), named === undefined ? undefined : eq(calls.id, named)))
      .limit(1);
    if (!open?.instanceId || open.instanceId === this.deps.routing.instanceId) return;
    await this.deps.routing.request(open.instanceId, { op: 'provider.event', providerCallId, event });
  }

  /**
   * The provider asks what to do with a call arriving at `to` (its answer webhook): connect it to
   * our media socket while the owner's tabs ring, or say why it cannot go on.
   */
  async answerInbound(providerCallId: string, from: string, to: string): Promise<InboundAnswer> {
    const { db, live, ringing, timing, telephony } = this.deps;
    const owner = await rentedNumberOwner(db, to);
    if (!owner) return { action: 'say', message: 'The number you have called is not in service.' };
    const { token, provider } = this.newProviderCall(timing.ringTimeoutMs + timing.mediaConnectTimeoutMs);
    provider.id = providerCallId;
    // Settled until ringing: a call that cannot ring is answered with a message, not hung up.
    provider.settled = true;
    const { result, callId } = await ringing.ringFromOutside(owner, from, to, null, provider);
    // Ringing, or answered by the owner's voicemail: either way the caller's audio joins the call.
    if (result !== 'ringing' && result !== 'voicemail') return { action: 'say', message: OUTSIDE_CALLER_MESSAGES[result] ?? 'Your call cannot be connected.' };
    provider.settled = false;
    this.mediaTokens.set(provider.mediaTokenHash!, callId);
    const call = live.get(callId);
    if (call) {
      call.log.info({ providerCallId, result }, 'call from the phone network ringing');
      live.after(call, timing.mediaConnectTimeoutMs, () => {
        if (!call.caller) void live.end(call, 'failed', 'The phone network did not connect the call audio');
      });
    }
    const base = this.providerBase(telephony.name);
    return { action: 'connect', callId, mediaUrl: `${base.replace(/^http/, 'ws')}/media?token=${token}`, eventUrl: `${base}/events?call=${callId}` };
  }

  /** Shutdown: waits, for a while, for the provider to confirm the hang-ups asked of it. */
  async waitForHangups() {
    if (this.pendingHangups.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.pendingHangups]), new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_HANGUP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /**
   * Rings the number through the provider, whose media socket joins the call once the far side
   * answers. The socket's URL carries a random one-time token; the event URL names the call.
   */
  private async placeThroughProvider(call: LiveCall, providerCalls: ProviderCalls, from: string, to: string) {
    const { db, live, timing, telephony } = this.deps;
    const { token, provider } = this.newProviderCall(timing.ringTimeoutMs + timing.providerGraceMs + timing.mediaConnectTimeoutMs);
    call.provider = provider;
    this.mediaTokens.set(provider.mediaTokenHash!, call.id);

    await markRinging(db, call.id);
    live.sendToCaller(call, { type: 'call.state', callId: call.id, state: 'ringing' });
    // The provider gives up ringing itself and says so; this ends a call whose event never came.
    live.after(call, timing.ringTimeoutMs + timing.providerGraceMs, () => {
      if (!call.answeredAt) void live.end(call, 'no-answer', 'Nobody answered');
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
      await live.end(call, 'failed', reason);
      throw AppError.providerFailed(reason, error);
    }
    provider.id = providerCallId;
    call.log.info({ providerCallId }, 'the phone network took the call');
    await db.update(calls).set({ providerCallId }).where(eq(calls.id, call.id));
    // The caller hung up while the provider was still accepting the call.
    if (call.ending && !provider.settled) this.hangUpAtProvider(call, provider);
  }

  /** A status event from the provider for one of the calls this instance holds. */
  private async applyEvent(callId: string, providerCallId: string, event: ProviderCallEvent) {
    const { live, timing } = this.deps;
    const call = live.get(callId);
    if (!call?.provider || call.ending) return;
    // Events of the call's other legs (the provider's side of our websocket) carry another id.
    if (call.provider.id !== null && call.provider.id !== providerCallId) return;
    call.log.info({ event: event.type, ...(event.type === 'ended' ? { outcome: event.outcome } : {}) }, 'phone network call event');
    if (call.userId === null) {
      // An inbound call: the provider answered it for us; only the caller hanging up matters.
      if (event.type !== 'ended') return;
      call.provider.settled = true;
      await live.end(call, call.answeredAt ? 'completed' : 'cancelled', null);
      return;
    }
    switch (event.type) {
      case 'ringing':
        return;
      case 'answered':
        if (call.answeredAt) return;
        await live.markCallAnswered(call);
        live.after(call, timing.mediaConnectTimeoutMs, () => {
          if (!call.callee) void live.end(call, 'failed', 'The phone network did not connect the call audio');
        });
        return;
      case 'ended': {
        call.provider.settled = true;
        const connected = call.answeredAt !== null || event.outcome !== 'completed';
        await live.end(call, connected ? event.outcome : 'failed', connected ? event.reason : 'The call ended before it connected');
        return;
      }
    }
  }

  /**
   * Asks the provider to hang up (docs/providers.md#vonage-voice: not by closing the websocket
   * alone), after saying `message` to the far side when there is one. Not awaited by the caller's
   * hang-up; a shutdown waits for it.
   */
  private hangUpAtProvider(call: LiveCall, provider: ProviderCall, message?: string) {
    const providerCalls = this.deps.telephony.calls;
    if (!providerCalls || !provider.id) return;
    provider.settled = true;
    const hangup: Promise<void> = (message ? providerCalls.sayAndHangUp(provider.id, message) : providerCalls.hangup(provider.id))
      .catch((error: unknown) => call.log.warn({ err: error }, 'the telephony provider did not hang up the call'))
      .finally(() => this.pendingHangups.delete(hangup));
    this.pendingHangups.add(hangup);
  }

  /** Our id of the call the provider knows by `providerCallId`, if it is on this server. */
  private callIdForProvider(providerCallId: string): string | null {
    for (const call of this.deps.live.all()) if (call.provider?.id === providerCallId) return call.id;
    return null;
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
}
