import type { CallSampleRate } from '../../common/calls';
import { readEndAfterDrop, signedOutEnd } from './call-ending';
import type { CallSessionDeps } from './call-session-ports';
import type { LiveCall } from './call-snapshot';
import type { HeldCall } from './held-call';

/**
 * The server closes a received call's media socket just before it sends call.ended: a drop is only
 * a failure when no call.ended follows within this time.
 */
export const MEDIA_DROP_GRACE_MS = 1_000;

/**
 * Starts the held call's audio (docs/calls.md "Media") and settles the call when its audio (the
 * peer connection or the media socket) drops by itself: how it ended is read, or a received call
 * still open is hung up.
 */
export class CallMediaConnection {
  constructor(
    private readonly held: HeldCall,
    private readonly deps: Pick<CallSessionDeps, 'media' | 'server' | 'clock'>,
  ) {}

  /**
   * A call that ended meanwhile has its audio closed at once. A placed call's failure is thrown to
   * the caller; a received one's declines the call.
   */
  async connect(call: LiveCall, mediaPath: string, sampleRate: CallSampleRate) {
    try {
      const media = await this.deps.media.connect({
        callId: call.callId!,
        mediaPath,
        signalling: this.held.signallingSocket,
        stream: call.stream!,
        sampleRate,
        onDrop: (signedOut) => this.dropped(call, signedOut),
      });
      if (!this.held.holds(call)) return media.close();
      call.media = media;
      call.stream = null;
      if (call.muted) media.setMuted(true);
      this.held.publish();
    } catch (error) {
      // The media connection has stopped the microphone already.
      call.stream = null;
      if (!this.held.holds(call)) return;
      if (call.direction === 'outbound') throw error;
      this.held.abandon(call, 'Call failed', (error as Error).message || 'The call audio could not start');
    }
  }

  private dropped(call: LiveCall, signedOut: boolean) {
    const callId = call.callId!;
    // Signed out, the call ended on the server and nothing more can be asked of it.
    if (signedOut) return this.held.finish(callId, signedOutEnd(call, this.deps.clock.now()));
    const settle = async () => {
      if (!this.held.holds(call)) return;
      const { end, stillOpen } = await readEndAfterDrop(this.deps.server, call);
      if (stillOpen) this.held.send({ type: 'call.hangup', callId });
      this.held.finish(callId, end);
    };
    if (call.direction === 'outbound') void settle();
    else this.deps.clock.after(MEDIA_DROP_GRACE_MS, () => void settle());
  }
}
