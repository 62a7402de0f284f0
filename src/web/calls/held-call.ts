import type { Signalling } from '../lib/realtime';
import { announceEnd, type CallEnd } from './call-ending';
import type { CallSessionDeps } from './call-session-ports';
import { idleSnapshot, snapshotOf, type CallSnapshot, type LiveCall } from './call-snapshot';
import { ElapsedSeconds } from './elapsed-seconds';

export const incomingNoticeId = (callId: string) => `incoming-call-${callId}`;

export function stopMicrophone(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

type HeldCallDeps = Pick<CallSessionDeps, 'clock' | 'notices' | 'onCallEnded'>;

/**
 * The one call this tab holds, and whether it listens for calls: what the page reads, and where a
 * call ends in this tab (let go of, and announced). Placing, receiving and the media connection act
 * on the call through it.
 */
export class HeldCall {
  private live: LiveCall | null = null;
  private listeningNow = false;
  private signalling: Signalling | null = null;
  /** Releases the signalling socket the call holds (a draining server's tabs keep it until their call ends). */
  private releaseSocket: (() => void) | null = null;
  private snapshot: CallSnapshot = idleSnapshot;
  private readonly listeners = new Set<() => void>();
  readonly elapsed: ElapsedSeconds;

  constructor(private readonly deps: HeldCallDeps) {
    this.elapsed = new ElapsedSeconds(deps.clock);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): CallSnapshot => this.snapshot;

  get current(): LiveCall | null {
    return this.live;
  }

  /** `call` is still this tab's call (not ended, hung up or replaced meanwhile). */
  holds(call: LiveCall): boolean {
    return this.live === call;
  }

  get listening(): boolean {
    return this.listeningNow;
  }

  /** Takes `call` as this tab's one call. */
  hold(call: LiveCall) {
    this.live = call;
    this.releaseSocket?.();
    this.releaseSocket = this.signalling?.holdForCall() ?? null;
    this.publish();
  }

  setListening(listening: boolean) {
    this.listeningNow = listening;
    this.publish();
  }

  /** Sends on the tab's signalling socket (null while there is none). */
  setSignalling(signalling: Signalling | null) {
    this.signalling = signalling;
  }

  /** Stops sending on `signalling`, unless another socket has taken its place. */
  letGoOfSignalling(signalling: Signalling) {
    if (this.signalling !== signalling) return;
    this.signalling = null;
    this.releaseSocket?.();
    this.releaseSocket = null;
  }

  /** The tab's signalling socket, which the call's WebRTC offer goes out on; null while there is none. */
  get signallingSocket(): Signalling | null {
    return this.signalling;
  }

  /** There is a signalling socket, connected or reconnecting. */
  get hasSignalling(): boolean {
    return this.signalling !== null;
  }

  /** Answers false when the socket is not there or not open. */
  send(message: Parameters<Signalling['send']>[0]): boolean {
    return this.signalling?.send(message) ?? false;
  }

  /** The call is answered (`answeredAt` as the server recorded it, else now): its time starts. */
  markAnswered(call: LiveCall, answeredAt: string | null) {
    if (call.answeredAt !== null) return;
    call.answeredAt = answeredAt ? Date.parse(answeredAt) : this.deps.clock.now();
    call.phase = 'active';
    this.elapsed.start(call.answeredAt);
    this.publish();
    this.deps.notices.success('Call connected');
  }

  /** The call is over (call.ended, a record read, or the answer to our hang-up): say how it went. */
  finish(callId: string, end: CallEnd) {
    const call = this.live;
    if (call?.callId !== callId) return;
    this.release(call);
    this.deps.onCallEnded();
    announceEnd(this.deps.notices, call, end, this.deps.clock.now());
  }

  /** The call cannot be taken here: it is declined (hung up once answered), so nothing is left half-open. */
  abandon(call: LiveCall, title: string, description: string) {
    this.send({ type: call.answerSent ? 'call.hangup' : 'call.reject', callId: call.callId! });
    this.release(call);
    this.deps.notices.error(title, { description });
  }

  /** A received call stops ringing: Auto-Answer, the system notification and the incoming notice go. */
  stopAlerting(call: LiveCall) {
    call.cancelAutoAnswer?.();
    call.cancelAutoAnswer = null;
    call.closeNotification?.();
    call.closeNotification = null;
    if (call.direction === 'inbound') this.deps.notices.dismiss(incomingNoticeId(call.callId!));
  }

  /** Lets go of everything the call holds in this tab; what the server is told is up to the caller. */
  release(call: LiveCall) {
    const held = this.live === call;
    if (held) {
      this.live = null;
      this.releaseSocket?.();
      this.releaseSocket = null;
    }
    this.stopAlerting(call);
    call.media?.close();
    if (!call.media) stopMicrophone(call.stream);
    call.media = null;
    call.stream = null;
    this.publish();
    if (held) this.elapsed.stop();
  }

  publish() {
    this.snapshot = snapshotOf(this.live, this.listeningNow);
    for (const listener of this.listeners) listener();
  }
}
