import type { WebSocket } from 'ws';
import type { LiveMediaFigures } from '../../common/api/admin';
import type { DtmfResult, PlaceCallBody, PlaceCallResult } from '../../common/api/calls';
import type { SessionUser } from '../../common/api/session';
import type { CallOutcome } from '../../common/calls';
import type { SocketCodec } from '../../common/media';
import type { VoiceSettings } from '../../common/voice';
import type { Bus } from '../bus/bus';
import type { Database } from '../db/client';
import type { Draining } from '../health/draining';
import { AppError } from '../http/app-error';
import { BrowserLeg } from '../media/browser-leg';
import type { CallLeg } from '../media/leg';
import { socketTransport } from '../media/socket-codec';
import type { WebRtcEndpoint } from '../media/webrtc/webrtc-endpoint';
import type { Metrics } from '../metrics/metrics';
import type { ProviderCallEvent, TelephonyProvider } from '../providers/telephony/telephony-provider';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { announceCallEnded } from '../sync/announce-call-changes';
import { placeCall, type CallPlacingDependencies, type PlaceCallOptions } from './call-placing';
import type { CallLog } from './call-log';
import { recordMediaTransport } from './call-records';
import { CallRouting } from './call-routing';
import { LiveCalls, NO_CALL } from './live-calls';
import { mediaFiguresOf } from './media-figures';
import { ProviderSide, type InboundAnswer } from './provider-calls';
import type { calls } from './schema';
import type { CallTiming } from './timing';
import { noCallUp, TouchTones } from './touch-tones';
import { UserRinging, type RingResult } from './user-ringing';
import type { VoicemailAnswering } from '../voicemail/voicemail-answering';
import { CallRecorder, type CallRecorderDependencies } from '../recordings/call-recorder';
import { answerWebRtcOffers } from './webrtc-offers';

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
  /** Once it is active, calls placed here are refused (docs/deploy.md#draining). */
  draining: Pick<Draining, 'active'>;
  /** MAX_CALLS_PER_INSTANCE: new calls are admitted by the caller's plan below it (admission/admission.ts). */
  maxCalls: number;
  /** Answers browsers' WebRTC offers; null when WEBRTC=false. */
  webrtc: WebRtcEndpoint | null;
  /** Takes the calls to Voxline numbers that nobody answers (docs/calls.md#voicemail); without it they end as missed. */
  voicemail?: VoicemailAnswering;
  /** Where call recordings are written as calls go (docs/calls.md#recording); without it, recording is refused. */
  recording?: Pick<CallRecorderDependencies, 'spool' | 'encoder'>;
  log: CallLog;
  /** What the calls and their audio count and time (docs/operations.md#metrics). */
  metrics?: Pick<Metrics, 'calls' | 'media' | 'voiceEngine'>;
}

/**
 * The one call model (docs/calls.md) for calls this server carries, as the routes, the realtime
 * hub and the app see it. Each job is a module of its own:
 * - call-placing.ts: placing a call and routing `to`;
 * - live-calls.ts: the live call and its legs: answer, join, mute, voice, and where every call ends;
 * - user-ringing.ts: ringing Voxline users, first answer wins, missed calls;
 * - provider-calls.ts: calls on the phone network, the provider's media sockets and events;
 * - call-routing.ts: acting on a call held by another instance, relaying its media.
 * Each method here acts on the call where it is held: on this instance, or through call-routing.
 */
export class CallService {
  private readonly live: LiveCalls;
  private readonly routing: CallRouting;
  private readonly ringing: UserRinging;
  private readonly provider: ProviderSide;
  private readonly placing: CallPlacingDependencies;
  private readonly touchTones: TouchTones;
  private readonly recorder: CallRecorder | null;

  constructor(private readonly deps: CallServiceDependencies) {
    const { db, hub, bus, telephony, timing, instanceId, log } = deps;
    this.live = new LiveCalls({ db, hub, log, voiceFrameTimes: deps.metrics?.voiceEngine });
    deps.metrics?.calls.watch(this.live);
    this.routing = new CallRouting({ db, hub, bus, instanceId, live: this.live, log, media: deps.metrics?.media });
    this.ringing = new UserRinging({ db, hub, timing, instanceId, live: this.live, routing: this.routing, voicemail: deps.voicemail, maxCalls: deps.maxCalls });
    this.provider = new ProviderSide({ db, telephony, timing, providerCallbackUrl: deps.providerCallbackUrl, live: this.live, ringing: this.ringing, routing: this.routing, media: deps.metrics?.media });
    this.touchTones = new TouchTones({ live: this.live, telephony });
    this.recorder = deps.recording ? new CallRecorder({ db, hub, live: this.live, instanceId, log, ...deps.recording }) : null;
    this.placing = { db, timing, soundTestNumber: deps.soundTestNumber, instanceId, draining: deps.draining, maxCalls: deps.maxCalls, live: this.live, ringing: this.ringing, provider: this.provider };
    answerWebRtcOffers({ db, hub, live: this.live, routing: this.routing, endpoint: deps.webrtc, endForSignOut: (userId, callId) => this.endForSignOut(userId, callId) });

    hub.on('call.hangup', (user, message) => this.hangup(user.id, message.callId));
    hub.on('call.mute', (user, message) => this.setMuted(user.id, message.callId, message.muted));
    hub.on('media.catchUp', (user, message) => this.catchUpPlayout(user.id, message.callId, message.bufferedMs));
    hub.on('call.record', async (user, message, tabId) => {
      try {
        await this.setRecording(user.id, message.callId, message.recording);
      } catch (error) {
        // Refusals keep their code (plan_required), so that the tab can say which plan records calls.
        if (!(error instanceof AppError)) throw error;
        hub.sendToTab(user.id, tabId, { type: 'error', code: error.code, message: error.message, callId: message.callId });
      }
    });
    hub.on('call.answer', (user, message, tabId) => this.ringing.answer(user.id, message.callId, tabId));
    hub.on('call.reject', (user, message) => this.ringing.reject(user.id, message.callId));
    this.routing.on('hangup', (request) => this.hangup(request.userId, request.callId));
    this.routing.on('signed-out', (request) => this.endForSignOut(request.userId, request.callId));
    this.routing.on('mute', (request) => this.setMuted(request.userId, request.callId, request.muted));
    this.routing.on('media.catchUp', (request) => this.catchUpPlayout(request.userId, request.callId, request.bufferedMs));
    this.routing.on('record', (request) => this.setRecording(request.userId, request.callId, request.recording));
    this.routing.on('dtmf', async (request) => {
      const sent = await this.touchTones.send(request.userId, request.callId, request.digits);
      if (sent === 'not-here') throw noCallUp();
      return sent;
    });
    this.routing.on('voice', (request) => this.live.applyVoiceSettings(request.userId, request.settings));
    this.routing.on('end', async (request) => {
      const outcome = await this.live.endForOperator(request.callId, request.reason);
      if (!outcome) throw AppError.notFound(NO_CALL.reason);
      return outcome;
    });
    this.routing.on('figures', () => mediaFiguresOf(this.live.all()));
    // Last of the end hooks, so that the records (and a recording) are final when the tabs reload them.
    this.live.onEnded(async (call) => announceCallEnded({ hub, db, log: call.log }, call));
  }

  /** Lets the other instances reach the calls this one holds. */
  async start() {
    await this.routing.start();
  }

  /** The user places a call from one of their numbers (POST /calls and the compatibility route). */
  place(user: SessionUser, body: PlaceCallBody, options: PlaceCallOptions = {}): Promise<PlaceCallResult> {
    return placeCall(this.placing, user, body, options);
  }

  /**
   * A call participant's browser connects the call's audio: the caller, or the callee once
   * answered, its messages Opus packets or PCM frames as `codec` says. A socket for a call that
   * another instance holds is relayed to it over the bus.
   */
  async attachBrowser(user: SessionUser, callId: string, socket: WebSocket, codec: SocketCodec) {
    const attached = this.live.attachLeg(user.id, callId, (sampleRate) => new BrowserLeg(socket, codec, sampleRate, this.deps.metrics?.media.stream(socketTransport(codec))));
    if (attached === 'not-here') await this.routing.relayBrowser(user.id, callId, socket, codec);
    else if (attached !== 'attached') socket.close(attached.code, attached.reason);
    else {
      const log = this.live.logFor(user.id, callId);
      log.info({ transport: socketTransport(codec) }, 'browser audio connected');
      recordMediaTransport(this.deps.db, user.id, callId, socketTransport(codec)).catch((error: unknown) => log.warn({ err: error }, 'could not record how the call audio travels'));
    }
  }

  /** The user hangs up their call (caller or callee), wherever it is held; an ended call stays ended. */
  async hangup(userId: string, callId: string) {
    if (!(await this.live.hangUp(userId, callId))) await this.routing.hangUpElsewhere(userId, callId);
  }

  /**
   * The session that opened a participant's media socket has ended (signed out, or the password
   * changed or reset elsewhere): the call ends as their hang-up would, saying why, on whichever
   * instance holds it.
   */
  async endForSignOut(userId: string, callId: string) {
    const log = this.live.logFor(userId, callId);
    try {
      if (!(await this.live.endForSignOut(userId, callId))) await this.routing.signedOutElsewhere(userId, callId);
    } catch (error) {
      log.warn({ err: error }, 'could not end the call of a session that ended');
    }
  }

  /**
   * An administrator ends a call in progress, named by either participant's record, on whichever
   * instance holds it: both sides are told `reason` and their records keep it. Answers its outcome,
   * or null when no call by that id is in progress.
   */
  async endForOperator(callId: string, reason: string): Promise<CallOutcome | null> {
    return (await this.live.endForOperator(callId, reason)) ?? this.routing.endElsewhere(callId, reason);
  }

  /** The live media figures of the calls instance `instanceId` holds (this one or another), by record id. */
  async mediaFigures(instanceId: string): Promise<Record<string, LiveMediaFigures>> {
    return instanceId === this.deps.instanceId ? mediaFiguresOf(this.live.all()) : this.routing.figuresOf(instanceId);
  }

  /** The user mutes or unmutes their side of the call, wherever it is held. */
  async setMuted(userId: string, callId: string, muted: boolean) {
    if (!this.live.setMuted(userId, callId, muted)) await this.routing.forward(userId, callId, 'No such call in progress', { op: 'mute', userId, callId, muted });
  }

  /** The user's tab plays the call's audio late: the leg sending it catches up, wherever the call is held. */
  async catchUpPlayout(userId: string, callId: string, bufferedMs: number) {
    if (!this.live.catchUpPlayout(userId, callId, bufferedMs)) {
      await this.routing.forward(userId, callId, 'No such call in progress', { op: 'media.catchUp', userId, callId, bufferedMs });
    }
  }

  /**
   * The user starts or stops recording their call (caller or callee), on whichever instance holds
   * it: refused for a plan without recording and for a call not yet answered.
   */
  async setRecording(userId: string, callId: string, recording: boolean) {
    if (!this.recorder) throw AppError.unavailable('Call recording is not available on this server');
    if (!(await this.recorder.set(userId, callId, recording))) await this.routing.forward(userId, callId, 'No such call in progress', { op: 'record', userId, callId, recording });
  }

  /**
   * The user presses keys during their call (caller or callee), on whichever instance holds it:
   * 404 for a call that is not theirs, 409 when it is not up (ended, not yet answered or connected).
   */
  async sendDtmf(userId: string, callId: string, digits: string): Promise<DtmfResult> {
    const sent = await this.touchTones.send(userId, callId, digits);
    if (sent !== 'not-here') return sent;
    const holder = await this.routing.holderOf(userId, callId, 'No such call');
    if (!holder) throw noCallUp();
    return (await this.routing.request(holder, { op: 'dtmf', userId, callId, digits })) as DtmfResult;
  }

  /**
   * The caller saved new voice settings: their call in progress takes them at once, as far as the
   * plan allows, on whichever instance holds it; a notice tells them what the plan refuses.
   */
  async updateVoiceSettings(userId: string, settings: VoiceSettings) {
    await this.live.applyVoiceSettings(userId, settings);
    await this.routing.voiceSettingsElsewhere(userId, settings);
  }

  /** Takes a provider media socket's one-time token: answers its call's id the first time, then null. */
  claimProviderMedia(token: string): string | null {
    return this.provider.claimMedia(token);
  }

  /** The provider connects the far side's audio to call `callId`. */
  attachProviderMedia(callId: string, socket: WebSocket): Promise<void> {
    return this.provider.attachMedia(callId, socket);
  }

  /** A status event from the provider's webhook, acted on by whichever instance holds its call. */
  receiveProviderEvent(providerCallId: string, event: ProviderCallEvent, named?: string): Promise<void> {
    return this.provider.receiveEvent(providerCallId, event, named);
  }

  /** The provider's answer webhook: connect a call arriving at `to` while its owner's tabs ring, or say why not. */
  answerProviderInbound(providerCallId: string, from: string, to: string): Promise<InboundAnswer> {
    return this.provider.answerInbound(providerCallId, from, to);
  }

  /** A call from outside Voxline (the virtual carrier's simulated caller) rings the user. */
  ringFromOutside(calleeUserId: string, from: string, to: string, caller: CallLeg | null): Promise<{ result: RingResult; callId: string }> {
    return this.ringing.ringFromOutside(calleeUserId, from, to, caller);
  }

  /** Whether the user has a call ringing or in progress on this server, in either direction. */
  hasCallInProgress(userId: string): boolean {
    return this.live.hasCallOf(userId);
  }

  /** How many calls this server carries now (readiness compares it with MAX_CALLS_PER_INSTANCE). */
  carriedCount(): number {
    return this.live.all().length;
  }

  /**
   * The calls that stopping this server now would cut: those it carries, and those whose browser's
   * media socket it relays to the instance carrying them. A drain waits for them to end.
   */
  callsUsingThisInstance(): number {
    return this.live.all().length + this.routing.relayCount;
  }

  /**
   * Ends every call this server carries (shutdown): records finalised, callers told, provider
   * calls hung up; the instances holding calls whose media sockets this one relays are told too.
   */
  async endAll(reason: string) {
    const relaysTold = this.routing.closeRelays(reason);
    await this.live.endAll(reason);
    await relaysTold;
    await this.provider.waitForHangups();
    await this.routing.stop();
  }

  /** After the instance registry's sweep: calls and relays of instances that stopped are let go. */
  forgetStoppedInstances(running: ReadonlySet<string>, closed: (typeof calls.$inferSelect)[]) {
    this.routing.forgetStoppedInstances(running, closed);
  }
}
