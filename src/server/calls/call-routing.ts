import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { LiveMediaFigures } from '../../common/api/admin';
import type { CallOutcome, CallSampleRate } from '../../common/calls';
import type { MediaTransport, SocketCodec } from '../../common/media';
import type { VoiceSettings } from '../../common/voice';
import type { Bus } from '../bus/bus';
import { InstanceLink } from '../bus/instance-link';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { BrowserRelay } from '../media/browser-relay';
import { MediaExchange } from '../media/media-exchange';
import { RemoteBrowserLeg } from '../media/remote-browser-leg';
import type { MediaMetrics } from '../metrics/media-meter';
import { socketTransport } from '../media/socket-codec';
import type { ProviderCallEvent } from '../providers/telephony/telephony-provider';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { findCall, recordMediaTransport } from './call-records';
import { AUDIO_TAKEN, NO_CALL, SIGNED_OUT, type LiveCalls } from './live-calls';
import { findOpenCall } from './open-calls';
import { calls } from './schema';

/**
 * What one instance asks of the one holding a call (calls live in the memory of the instance that
 * placed or rang them; their records name it): the user's tab or media socket is on the asker.
 */
export type CallRequest =
  | { op: 'answer'; userId: string; callId: string; tabId: string }
  | { op: 'reject' | 'hangup' | 'signed-out'; userId: string; callId: string }
  | { op: 'mute'; userId: string; callId: string; muted: boolean }
  | { op: 'media.catchUp'; userId: string; callId: string; bufferedMs: number }
  | { op: 'record'; userId: string; callId: string; recording: boolean }
  | { op: 'dtmf'; userId: string; callId: string; digits: string }
  | { op: 'voice'; userId: string; settings: VoiceSettings }
  | { op: 'end'; callId: string; reason: string }
  | { op: 'figures' }
  | { op: 'media.open'; userId: string; callId: string; relayId: string; relayInstance: string; transport: MediaTransport }
  | { op: 'media.closed'; relayId: string; reason: string }
  | { op: 'media.offer'; userId: string; callId: string; sdp: string; tabId: string }
  | { op: 'provider.event'; providerCallId: string; event: ProviderCallEvent };

/** The requests another part of the call core acts on; the media ones are this module's own. */
type ActedOn = Exclude<CallRequest['op'], 'media.open' | 'media.closed'>;
type RequestHandler<Op extends ActedOn> = (request: CallRequest & { op: Op }) => unknown;

export interface CallRoutingDependencies {
  db: Database;
  hub: RealtimeHub;
  bus: Bus;
  instanceId: string;
  live: LiveCalls;
  log: { warn(obj: object, msg: string): void };
  /** Counts the relayed frames: under the browser socket's transport here, as relay on the instance holding the call. */
  media?: MediaMetrics;
}

/**
 * Calls between instances (docs/calls.md#routing): a request about a call that another instance
 * holds is sent there and acted on by the handler registered for it (`on`); a media socket for
 * such a call is relayed to it; the calls and relays of instances that stopped are let go.
 */
export class CallRouting {
  private readonly link: InstanceLink<CallRequest>;
  private readonly media: MediaExchange;
  private readonly handlers = new Map<ActedOn, (request: CallRequest) => unknown>();
  /** Media sockets this instance holds for calls another instance carries, by relay id. */
  private readonly relays = new Map<string, { relay: BrowserRelay; holder: string; userId: string; callId: string }>();
  /** Legs of calls here whose browser's media socket another instance holds, by relay id. */
  private readonly remoteLegs = new Map<string, { leg: RemoteBrowserLeg; relayInstance: string }>();

  constructor(private readonly deps: CallRoutingDependencies) {
    this.link = new InstanceLink(deps.bus, deps.instanceId, (request) => this.act(request), deps.log);
    this.media = new MediaExchange(deps.bus, deps.instanceId);
  }

  /** This instance, as the records of the calls it holds name it. */
  get instanceId(): string {
    return this.deps.instanceId;
  }

  /** What this instance does when another asks `op` of a call it holds. */
  on<Op extends ActedOn>(op: Op, handler: RequestHandler<Op>) {
    this.handlers.set(op, handler as (request: CallRequest) => unknown);
  }

  /** The media sockets this instance relays to calls that others carry. */
  get relayCount(): number {
    return this.relays.size;
  }

  /** Lets the other instances reach the calls this one holds. */
  async start() {
    await Promise.all([this.link.start(), this.media.start()]);
  }

  async stop() {
    await Promise.all([this.link.stop(), this.media.stop()]);
  }

  /** Asks instance `holder` to act on `request`; answers what it answers, or throws its error. */
  request(holder: string, request: CallRequest): Promise<unknown> {
    return this.link.request(holder, request);
  }

  /**
   * The instance holding the user's call `callId`, when it is another one (its record names it);
   * null when the call has ended or was this instance's. Throws `missing` when the user has no such call.
   */
  async holderOf(userId: string, callId: string, missing: string): Promise<string | null> {
    const row = isUuid(callId) ? await findCall(this.deps.db, userId, callId) : undefined;
    if (!row) throw AppError.notFound(missing);
    return row.state !== 'ended' && row.instanceId && row.instanceId !== this.deps.instanceId ? row.instanceId : null;
  }

  /** Acts on a call this instance does not hold, on the instance that does; answers what it answers. */
  async forward(userId: string, callId: string, missing: string, request: CallRequest): Promise<unknown> {
    const holder = await this.holderOf(userId, callId, missing);
    if (!holder) throw AppError.notFound(missing);
    return this.link.request(holder, request);
  }

  /** Hangs up the user's call on the instance holding it; nothing when it has ended. */
  async hangUpElsewhere(userId: string, callId: string) {
    const holder = await this.holderOf(userId, callId, 'No such call');
    if (holder) await this.link.request(holder, { op: 'hangup', userId, callId });
  }

  /**
   * The session of the user's media socket ended, and their call is elsewhere: a socket relayed
   * from here is let go without the "browser lost" notice, so that the holder records the reason.
   */
  async signedOutElsewhere(userId: string, callId: string) {
    const holder = this.letGoOfRelay(userId, callId) ?? (await this.holderOf(userId, callId, NO_CALL.reason));
    if (holder) await this.link.request(holder, { op: 'signed-out', userId, callId });
  }

  /**
   * An administrator ends call `callId` (either participant's record), held by another instance:
   * answers its outcome there, or null when no other instance holds it open.
   */
  async endElsewhere(callId: string, reason: string): Promise<CallOutcome | null> {
    const row = await findOpenCall(this.deps.db, callId);
    if (!row?.instanceId || row.instanceId === this.deps.instanceId) return null;
    return (await this.link.request(row.instanceId, { op: 'end', callId, reason })) as CallOutcome;
  }

  /** Asks instance `holder` for the live media figures of the calls it holds, by record id. */
  async figuresOf(holder: string): Promise<Record<string, LiveMediaFigures>> {
    return (await this.link.request(holder, { op: 'figures' })) as Record<string, LiveMediaFigures>;
  }

  /** The caller's calls in progress on other instances take their new voice settings. */
  async voiceSettingsElsewhere(userId: string, settings: VoiceSettings) {
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

  /**
   * Passes a media socket to the instance holding its call, which joins it as a RemoteBrowserLeg;
   * the socket's frames flow only once that instance has taken it. Closed when no instance holds it.
   * The socket's `codec` is decoded and encoded here: PCM frames at the call's rate cross the bus.
   */
  async relayBrowser(userId: string, callId: string, socket: WebSocket, codec: SocketCodec) {
    const holder = await this.holderOf(userId, callId, NO_CALL.reason).catch(() => null);
    if (!holder) {
      socket.close(NO_CALL.code, NO_CALL.reason);
      return;
    }
    const relayId = randomUUID();
    const log = this.deps.live.logFor(userId, callId);
    const relay = new BrowserRelay(socket, this.media, holder, relayId, codec, this.deps.media?.stream(socketTransport(codec)));
    this.relays.set(relayId, { relay, holder, userId, callId });
    relay.onClose((reason) => {
      if (!this.relays.delete(relayId)) return;
      this.link.notify(holder, { op: 'media.closed', relayId, reason }).catch((error: unknown) => log.warn({ err: error }, 'could not tell the server carrying the call that its audio went away'));
    });
    try {
      const { sampleRate } = (await this.link.request(holder, { op: 'media.open', userId, callId, relayId, relayInstance: this.deps.instanceId, transport: socketTransport(codec) })) as { sampleRate: CallSampleRate };
      relay.start(sampleRate);
      log.info({ holder }, 'call audio relayed to the server carrying the call');
      recordMediaTransport(this.deps.db, userId, callId, socketTransport(codec)).catch((error: unknown) => log.warn({ err: error }, 'could not record how the call audio travels'));
    } catch (error) {
      this.relays.delete(relayId);
      const refused = error instanceof AppError ? error : null;
      relay.close(refused?.message ?? 'The call audio could not be connected', refused?.statusCode === 409 ? AUDIO_TAKEN.code : refused?.statusCode === 404 ? NO_CALL.code : 1011);
    }
  }

  /**
   * Shutdown: closes the media sockets relayed from here and tells the instances holding their
   * calls; resolves once they are told.
   */
  closeRelays(reason: string): Promise<void> {
    const told = [...this.relays].map(([relayId, { relay, holder }]) => {
      this.relays.delete(relayId);
      relay.close(reason, 1001);
      return this.link.notify(holder, { op: 'media.closed', relayId, reason }).catch(() => {});
    });
    return Promise.all(told).then(() => undefined);
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

  /** Another instance holds a media socket for a call here (relayBrowser): joins it to the call. */
  private openRemoteMedia({ userId, callId, relayId, relayInstance, transport }: Extract<CallRequest, { op: 'media.open' }>) {
    let leg: RemoteBrowserLeg | undefined;
    const log = this.deps.live.logFor(userId, callId);
    const attached = this.deps.live.attachLeg(userId, callId, (sampleRate) => {
      const remote = new RemoteBrowserLeg(this.media, relayInstance, relayId, sampleRate, transport, this.deps.media?.stream('relay'));
      this.remoteLegs.set(relayId, { leg: remote, relayInstance });
      remote.onClose((reason) => {
        if (!this.remoteLegs.delete(relayId)) return;
        this.link.notify(relayInstance, { op: 'media.closed', relayId, reason }).catch((error: unknown) => log.warn({ err: error }, 'could not tell the server holding the browser that the call ended'));
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
    if (request.op === 'media.open') return this.openRemoteMedia(request);
    if (request.op === 'media.closed') return this.mediaClosedElsewhere(request.relayId, request.reason);
    return this.handlers.get(request.op)?.(request);
  }
}
