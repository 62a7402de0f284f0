import { SERVER_DRAINING, SERVER_DRAINING_RETRY_SEC, type PlaceCallBody, type PlaceCallResult } from '../../common/api/calls';
import { VOICEMAIL_ANSWERED } from '../../common/api/voicemail';
import type { ServerMessage } from '../../common/realtime';
import { ApiError } from '../lib/api-client';
import { announcePlacementError, announcePlacementFailure } from './call-ending';
import type { CallMediaConnection } from './call-media-connection';
import type { CallSessionDeps } from './call-session-ports';
import { newLiveCall, type LiveCall } from './call-snapshot';
import { stopMicrophone, type HeldCall } from './held-call';

export interface StartCall {
  from: string;
  /** E.164: the dial code joined with the digits (docs/product.md §5). */
  to: string;
  countryCode: string;
  voiceChanger?: boolean;
}

/** The placing side of the session: a call from the dialer, and the server's word on it as it rings and is answered. */
export class CallPlacing {
  constructor(
    private readonly held: HeldCall,
    private readonly media: CallMediaConnection,
    private readonly deps: Pick<CallSessionDeps, 'server' | 'media' | 'clock' | 'notices' | 'onCallEnded' | 'openPlans'>,
  ) {}

  /** Places a call: the microphone first (refused, no call is placed), then the call, then its audio. */
  readonly place = async ({ from, to, countryCode, voiceChanger = false }: StartCall) => {
    if (this.held.current) {
      this.deps.notices.error('Call in progress', { description: 'Please end the current call before starting a new one' });
      return;
    }
    const call = newLiveCall('outbound', { phase: 'connecting', callId: null, peer: to, countryCode });
    this.held.hold(call);
    this.deps.notices.info(voiceChanger ? 'Calling with voice changer...' : 'Calling...');
    try {
      call.stream = await this.deps.media.openMicrophone();
      if (!this.held.holds(call)) return stopMicrophone(call.stream);
      const placed = await this.placeOnServer(call, { from, to });
      if (!placed) return stopMicrophone(call.stream);
      const { call: record } = placed;
      // Hung up while it was being placed: the server hears of it, and no audio starts.
      if (!this.held.holds(call)) {
        stopMicrophone(call.stream);
        if (record.state !== 'ended') void this.deps.server.hangUpCall(record.id).then(() => this.deps.onCallEnded(), () => undefined);
        return;
      }
      if (placed.voiceNotice) this.deps.notices.warning(placed.voiceNotice);
      if (record.state === 'ended') {
        this.held.release(call);
        announcePlacementFailure(this.deps.notices, record.outcome ?? 'failed', record.reason);
        return;
      }
      call.callId = record.id;
      call.contactVoice = placed.contactVoice ?? null;
      call.voiceDelayMs = placed.voiceDelayMs ?? 0;
      if (record.state === 'ringing') call.phase = 'ringing';
      await this.media.connect(call, placed.mediaPath, placed.sampleRate);
      if (this.held.holds(call) && record.state === 'answered') {
        call.voicemail = record.reason === VOICEMAIL_ANSWERED;
        this.held.markAnswered(call, record.answeredAt);
      }
    } catch (error) {
      if (!this.held.holds(call)) return;
      stopMicrophone(call.stream);
      // A call placed whose audio could not start is hung up rather than left ringing.
      if (call.callId) void this.deps.server.hangUpCall(call.callId).catch(() => undefined);
      this.held.release(call);
      announcePlacementError(this.deps.notices, error, this.deps.openPlans);
    }
  };

  /**
   * The server's call; null when it was hung up meanwhile. A server that is draining refuses it
   * (docs/deploy.md#draining): it is tried once more after the wait the refusal names, which a
   * balancer sends to a ready instance; a second refusal is the caller's to read.
   */
  private async placeOnServer(call: LiveCall, body: PlaceCallBody): Promise<PlaceCallResult | null> {
    try {
      return await this.deps.server.placeCall(body);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === SERVER_DRAINING)) throw error;
    }
    await new Promise<void>((resolve) => this.deps.clock.after(SERVER_DRAINING_RETRY_SEC * 1000, resolve));
    return this.held.holds(call) ? this.deps.server.placeCall(body) : null;
  }

  /** call.state for the placed call: it rings, then it is answered. */
  follow(call: LiveCall, message: Extract<ServerMessage, { type: 'call.state' }>) {
    if (message.state === 'ringing' && call.phase === 'connecting') {
      call.phase = 'ringing';
      this.held.publish();
    }
    if (message.state !== 'answered') return;
    call.voicemail = message.reason === VOICEMAIL_ANSWERED;
    this.held.markAnswered(call, message.answeredAt ?? null);
  }
}
