import { NARROWBAND_RATE, WIDEBAND_RATE } from '../../common/calls';
import { formatPhoneNumberNow } from '../lib/phone-library';
import type { ServerMessage } from '../../common/realtime';
import type { CallMediaConnection } from './call-media-connection';
import type { CallSessionDeps } from './call-session-ports';
import { newLiveCall, type LiveCall } from './call-snapshot';
import { incomingNoticeId, stopMicrophone, type HeldCall } from './held-call';

/** Issue 6: Auto-Answer Incoming Calls answers after one ring. */
export const AUTO_ANSWER_DELAY_MS = 3_000;
/** docs/product.md §9: the incoming-call notice stays 10 seconds. */
const INCOMING_NOTICE_MS = 10_000;

function mediaPathOf(callId: string): string {
  return `/api/v1/calls/${encodeURIComponent(callId)}/media`;
}

/**
 * The receiving side of the session (docs/product.md §4, docs/calls.md "Signalling"): listening for
 * calls to the user's numbers, a call ringing here (notice, notification, Auto-Answer), answering
 * or rejecting it, and the server's word on a call received.
 */
export class CallReceiving {
  constructor(
    private readonly held: HeldCall,
    private readonly media: CallMediaConnection,
    private readonly deps: Pick<CallSessionDeps, 'media' | 'clock' | 'notices' | 'alerts' | 'preferences'>,
  ) {}

  readonly start = () => {
    if (!this.held.hasSignalling) {
      this.deps.notices.error('Error', { description: 'Voxline is not connected. Reload the page and try again.' });
      return;
    }
    // Sent even while the socket reconnects: the client sends it again once connected.
    this.held.send({ type: 'receiver.start' });
    this.held.setListening(true);
    this.deps.notices.info('Ready to receive calls');
    if (this.deps.preferences().notifications) this.deps.alerts.askPermission();
  };

  readonly stop = () => {
    const call = this.held.current;
    if (call?.direction === 'inbound' && call.phase === 'ringing') {
      this.held.send({ type: 'call.reject', callId: call.callId! });
      this.held.release(call);
    }
    this.held.send({ type: 'receiver.stop' });
    this.held.setListening(false);
    this.deps.notices.info('Call receiving stopped');
  };

  /** Answers the call ringing here: the microphone, then call.answer; the audio follows call.state answered. */
  readonly answer = async () => {
    const call = this.held.current;
    if (call?.direction !== 'inbound' || call.phase !== 'ringing' || !this.held.hasSignalling) return;
    const callId = call.callId!;
    this.held.stopAlerting(call);
    call.phase = 'answering';
    this.held.publish();
    let stream: MediaStream;
    try {
      stream = await this.deps.media.openMicrophone();
    } catch (error) {
      if (!this.held.holds(call)) return;
      // The product has no text for this: the call is declined and the notice says how to allow the microphone.
      this.held.abandon(call, 'Call rejected', error instanceof Error && error.name === 'MicrophoneError' ? error.message : 'The microphone could not be started.');
      return;
    }
    if (!this.held.holds(call)) return stopMicrophone(stream);
    call.stream = stream;
    if (!this.held.send({ type: 'call.answer', callId })) {
      this.held.abandon(call, 'Call failed', 'Voxline is not connected right now. Check your connection; the call may still ring in your other tabs.');
      return;
    }
    call.answerSent = true;
  };

  readonly reject = () => {
    const call = this.held.current;
    if (call?.direction !== 'inbound' || call.phase !== 'ringing') return;
    this.held.send({ type: 'call.reject', callId: call.callId! });
    this.held.release(call);
    this.deps.notices.info('Call rejected');
  };

  /** A call to the user's numbers: it rings here while listening and no call is on. */
  ring(message: Extract<ServerMessage, { type: 'call.incoming' }>) {
    // One call at a time; the server does not ring a user who is on a call (docs/calls.md "Routing").
    if (!this.held.listening || this.held.current) return;
    const call = newLiveCall('inbound', { phase: 'ringing', callId: message.callId, peer: message.from, countryCode: '' });
    this.held.hold(call);
    this.deps.notices.info('Incoming call', { id: incomingNoticeId(message.callId), description: `From ${formatPhoneNumberNow(message.from)}`, duration: INCOMING_NOTICE_MS });
    const preferences = this.deps.preferences();
    if (preferences.notifications) call.closeNotification = this.deps.alerts.notify(message.callId, message.from);
    if (preferences.autoAnswer) call.cancelAutoAnswer = this.deps.clock.after(AUTO_ANSWER_DELAY_MS, () => void this.answer());
  }

  /**
   * An `error` while this tab's answer is unconfirmed: the answer failed. The only request of ours
   * that can fail here is the answer, and a failed answer holds nothing on the server (it may be
   * another tab's call now).
   */
  answerRefused(call: LiveCall, message: Extract<ServerMessage, { type: 'error' }>) {
    const aboutThisCall = message.callId === undefined || message.callId === call.callId;
    if (aboutThisCall && call.answerSent && call.answeredAt === null) {
      this.held.release(call);
      this.deps.notices.error('Call failed', { description: message.message });
    }
  }

  /** call.state for the received call: answered here, its audio starts; ended, it is over. */
  follow(call: LiveCall, message: Extract<ServerMessage, { type: 'call.state' }>) {
    if (message.state === 'answered' && call.stream && call.answeredAt === null) {
      this.held.markAnswered(call, message.answeredAt ?? null);
      void this.media.connect(call, mediaPathOf(call.callId!), this.deps.preferences().dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE);
    }
    if (message.state === 'ended') this.held.finish(call.callId!, { outcome: message.outcome ?? null, durationSec: null, reason: message.reason ?? null });
  }
}
