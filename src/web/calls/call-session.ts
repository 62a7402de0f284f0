import { recordingRefusalCodes } from '../../common/api/recordings';
import type { ServerMessage } from '../../common/realtime';
import type { Signalling } from '../lib/realtime';
import { announceEnd } from './call-ending';
import { CallFiguresWatch } from './call-figures-watch';
import { CallMediaConnection } from './call-media-connection';
import { CallPlacing } from './call-placing';
import { CallReceiving } from './call-receiving';
import type { CallSessionDeps } from './call-session-ports';
import type { ElapsedSecondsStore } from './elapsed-seconds';
import { HeldCall } from './held-call';
import { TouchToneSender } from './touch-tone-sender';

/** The `error` codes of a refused `call.record`: shown as they are, the call goes on. */
const recordingRefusals: ReadonlySet<string> = new Set(Object.values(recordingRefusalCodes));

/**
 * One call at a time in this tab, placed from the dialer or received while listening (docs/calls.md
 * "Signalling", "Media"): its realtime messages, microphone, media connection, mute, timer, and how
 * it ends. React reads `getSnapshot` through useSyncExternalStore, and the call's elapsed seconds
 * from `elapsed`, which alone changes every second; the actions are bound.
 */
export class CallSession {
  private readonly held: HeldCall;
  private readonly placing: CallPlacing;
  private readonly receiving: CallReceiving;
  private readonly touchTones: TouchToneSender;
  /** The call's audio figures, for Call details. */
  readonly figures: CallFiguresWatch;
  readonly subscribe: HeldCall['subscribe'];
  readonly getSnapshot: HeldCall['getSnapshot'];
  readonly elapsed: ElapsedSecondsStore;
  readonly place: CallPlacing['place'];
  readonly startReceiving: CallReceiving['start'];
  readonly stopReceiving: CallReceiving['stop'];
  readonly answer: CallReceiving['answer'];
  readonly reject: CallReceiving['reject'];

  constructor(private readonly deps: CallSessionDeps) {
    this.held = new HeldCall(deps);
    const media = new CallMediaConnection(this.held, deps);
    this.placing = new CallPlacing(this.held, media, deps);
    this.receiving = new CallReceiving(this.held, media, deps);
    this.touchTones = new TouchToneSender(deps);
    this.figures = new CallFiguresWatch(deps);
    this.held.subscribe(() => this.figures.follow(this.held.current));
    this.subscribe = this.held.subscribe;
    this.getSnapshot = this.held.getSnapshot;
    this.elapsed = this.held.elapsed;
    this.place = this.placing.place;
    this.startReceiving = this.receiving.start;
    this.stopReceiving = this.receiving.stop;
    this.answer = this.receiving.answer;
    this.reject = this.receiving.reject;
  }

  /** Follows the tab's signalling socket (null while there is none); answers a function that stops following it. */
  attach(signalling: Signalling | null): () => void {
    this.held.setSignalling(signalling);
    if (!signalling) return () => undefined;
    const unsubscribe = signalling.subscribe((message) => this.receive(message));
    // The call may have ended while the socket was away.
    const unwatch = signalling.onConnect(() => {
      const callId = this.held.current?.callId;
      if (callId) void this.deps.server.getCall(callId).then((record) => (record.state === 'ended' ? this.held.finish(callId, record) : undefined), () => undefined);
    });
    return () => {
      unsubscribe();
      unwatch();
      this.held.letGoOfSignalling(signalling);
    };
  }

  /** The page is left: a received call is declined or hung up, a placed one closed, listening stops. */
  leave() {
    const call = this.held.current;
    if (call?.direction === 'inbound') this.held.send({ type: call.answerSent ? 'call.hangup' : 'call.reject', callId: call.callId! });
    if (call) this.held.release(call);
    if (this.held.listening) {
      this.held.send({ type: 'receiver.stop' });
      this.held.setListening(false);
    }
  }

  readonly hangUp = async () => {
    const call = this.held.current;
    if (!call || (call.direction === 'inbound' && call.phase === 'ringing')) return;
    const callId = call.callId;
    if (call.direction === 'inbound' && !call.answerSent) {
      // Still asking for the microphone: nothing was answered, so the call is declined.
      this.held.send({ type: 'call.reject', callId: callId! });
      this.held.release(call);
      this.deps.notices.info('Call rejected');
      return;
    }
    if (!callId) {
      // Not placed yet: placing hangs it up as soon as the server has it.
      this.held.release(call);
      announceEnd(this.deps.notices, call, { outcome: 'cancelled', durationSec: 0, reason: null }, this.deps.clock.now());
      return;
    }
    try {
      const record = await this.deps.server.hangUpCall(callId);
      this.held.finish(callId, record.state === 'ended' || call.direction === 'outbound' ? record : { outcome: 'completed', durationSec: null, reason: null });
    } catch {
      if (call.direction === 'inbound') this.held.send({ type: 'call.hangup', callId });
      this.held.finish(callId, { outcome: 'completed', durationSec: call.direction === 'outbound' ? 0 : null, reason: null });
    }
  };

  /** A key pressed during the call (0-9, * or #) goes to the far side as a touch-tone; false when no call is up to take it. */
  readonly pressKey = (key: string): boolean => {
    const call = this.held.current;
    if (!call?.callId || call.phase !== 'active') return false;
    this.touchTones.press(call.callId, key);
    return true;
  };

  readonly toggleMute = () => {
    const call = this.held.current;
    if (!call?.callId || (call.direction === 'inbound' ? call.phase !== 'active' : !call.media)) return;
    call.muted = !call.muted;
    call.media?.setMuted(call.muted);
    this.held.send({ type: 'call.mute', callId: call.callId, muted: call.muted });
    this.held.publish();
    this.deps.notices.info(call.muted ? 'Microphone muted' : 'Microphone unmuted');
  };

  /** Starts or stops this user's recording of the call; the server's call.recording says when it is on. */
  readonly toggleRecording = () => {
    const call = this.held.current;
    if (!call?.callId || call.phase !== 'active') return;
    this.held.send({ type: 'call.record', callId: call.callId, recording: call.recordingSince === null });
  };

  private receive(message: ServerMessage) {
    if (message.type === 'call.incoming') return this.receiving.ring(message);
    const call = this.held.current;
    if (!call?.callId) return;
    if (message.type === 'error' && recordingRefusals.has(message.code)) return this.deps.notices.error('Recording not started', { description: message.message });
    if (message.type === 'error') return call.direction === 'inbound' ? this.receiving.answerRefused(call, message) : undefined;
    if (!('callId' in message) || message.callId !== call.callId) return;
    if (message.type === 'call.ended') return this.held.finish(call.callId, { outcome: message.outcome, durationSec: message.durationSec, reason: message.reason ?? null });
    if (message.type === 'call.recording') {
      if (message.byYou) call.recordingSince = message.recording ? Date.parse(message.startedAt ?? '') || this.deps.clock.now() : null;
      else call.recordedByOther = message.recording;
      return this.held.publish();
    }
    if (message.type === 'call.dtmf') {
      call.keysHeard += message.digits;
      return this.held.publish();
    }
    if (message.type !== 'call.state') return;
    if (call.direction === 'outbound') this.placing.follow(call, message);
    else this.receiving.follow(call, message);
  }
}
