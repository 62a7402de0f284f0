import { NARROWBAND_RATE } from '../../common/calls';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { MediaOfferError, type WebRtcEndpoint } from '../media/webrtc/webrtc-endpoint';
import type { WebRtcLeg } from '../media/webrtc/webrtc-leg';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { recordMediaTransport } from './call-records';
import type { CallRouting } from './call-routing';
import { NO_CALL, type LiveCalls } from './live-calls';

export interface WebRtcOffersDependencies {
  db: Database;
  hub: RealtimeHub;
  live: LiveCalls;
  routing: CallRouting;
  /** Null when WEBRTC=false: browsers are told so and use the media websocket. */
  endpoint: WebRtcEndpoint | null;
  /** Ends the user's call as a sign-out does, wherever it is held. */
  endForSignOut(userId: string, callId: string): Promise<void>;
}

/** Takes the tabs' media.offer messages, and those other instances pass on for the calls held here. */
export function answerWebRtcOffers(deps: WebRtcOffersDependencies) {
  new WebRtcOffers(deps).listen();
}

/**
 * A browser's WebRTC offer for its call's audio (docs/calls.md#media). It is answered by the
 * instance holding the call, whose address the answer's candidates carry, so the audio goes straight
 * there without a relay; the leg joins the call once ICE and DTLS are up, so a browser that gives up
 * on WebRTC and falls back to the media websocket finds the call's audio slot still free.
 */
class WebRtcOffers {
  /**
   * The call each tab here last offered WebRTC audio for. Unlike a media websocket, a peer
   * connection is not tied to the session that opened it: the tab's signalling socket is, so its
   * closing for a sign-out ends the call, as the media socket's would.
   */
  private readonly offeredByTab = new Map<string, { userId: string; callId: string }>();
  /** Legs answered here and not yet connected, by call id: a call that ends frees their ports at once. */
  private readonly connecting = new Map<string, WebRtcLeg>();

  constructor(private readonly deps: WebRtcOffersDependencies) {}

  listen() {
    this.deps.hub.on('media.offer', (user, message, tabId) => this.offer(user.id, message.callId, message.sdp, tabId));
    this.deps.routing.on('media.offer', (request) => this.answerHere(request.userId, request.callId, request.sdp, request.tabId));
    this.deps.live.onEnding((call) => {
      for (const id of [call.id, call.inbound?.id]) if (id) this.connecting.get(id)?.close('The call ended');
    });
    this.deps.hub.onTabClosed((userId, tabId, signedOut) => {
      const offered = this.offeredByTab.get(tabId);
      this.offeredByTab.delete(tabId);
      if (signedOut && offered?.userId === userId) void this.deps.endForSignOut(userId, offered.callId);
    });
  }

  /** Answers the tab that offered, from whichever instance holds the call. */
  private async offer(userId: string, callId: string, sdp: string, tabId: string) {
    const answered = (await this.answerHere(userId, callId, sdp, tabId)) ?? (await this.deps.routing.forward(userId, callId, NO_CALL.reason, { op: 'media.offer', userId, callId, sdp, tabId }));
    const answer = answered as { sdp: string };
    this.offeredByTab.set(tabId, { userId, callId });
    this.deps.hub.sendToTab(userId, tabId, { type: 'media.answer', callId, sdp: answer.sdp });
  }

  /**
   * The answer, when this instance holds the call; null when another one does. The tab that offered
   * is told media.connected once the leg is up and joined, wherever the tab is.
   */
  private async answerHere(userId: string, callId: string, offerSdp: string, tabId: string): Promise<{ sdp: string } | null> {
    const slot = this.deps.live.legSlot(userId, callId);
    if (slot === 'not-here') return null;
    if ('code' in slot) throw slot.code === NO_CALL.code ? AppError.notFound(slot.reason) : AppError.conflict(slot.reason);
    const { endpoint } = this.deps;
    if (!endpoint) throw AppError.conflict('WebRTC is turned off on this server: connect the call audio over its websocket');
    const log = this.deps.live.logFor(userId, callId);
    let answered: Awaited<ReturnType<WebRtcEndpoint['answer']>>;
    try {
      answered = await endpoint.answer(offerSdp, { lowData: slot.sampleRate === NARROWBAND_RATE, log });
    } catch (error) {
      if (error instanceof MediaOfferError) throw AppError.badRequest(error.message);
      throw error;
    }
    const { leg } = answered;
    this.connecting.get(callId)?.close('The browser offered again');
    this.connecting.set(callId, leg);
    const settled = () => {
      if (this.connecting.get(callId) === leg) this.connecting.delete(callId);
    };
    leg.onClose(settled);
    leg.onConnected(() => {
      settled();
      const attached = this.deps.live.attachLeg(userId, callId, () => leg);
      if (attached !== 'attached') {
        leg.close(attached === 'not-here' ? NO_CALL.reason : attached.reason);
        return;
      }
      this.deps.hub.sendToTab(userId, tabId, { type: 'media.connected', callId });
      log.info({ transport: 'webrtc' }, 'browser audio connected');
      recordMediaTransport(this.deps.db, userId, callId, 'webrtc').catch((error: unknown) => log.warn({ err: error }, 'could not record how the call audio travels'));
    });
    return { sdp: answered.sdp };
  }
}
