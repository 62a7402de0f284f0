import type { CallSampleRate } from '../../common/calls';

/**
 * One audio endpoint of a call (docs/calls.md#a-call-and-its-legs): a browser, a provider's websocket, or a built-in party.
 * Frames are mono Int16 PCM, 20 ms, at the leg's own rate.
 *
 * A frame is lent, not given: a listener may read it only until it returns, and send() copies
 * what it keeps. That lets every stage reuse its buffers, so a call makes no garbage per frame.
 */
export interface CallLeg {
  readonly kind: 'browser' | 'provider' | 'echo' | 'simulated' | 'voicemail';
  readonly sampleRate: CallSampleRate;
  /** Gives the leg a frame to play to its side; the leg copies what it keeps. */
  send(frame: Int16Array): void;
  /** Called with each frame the leg's side produces, valid until the listener returns. */
  onFrame(listener: (frame: Int16Array) => void): void;
  /** Called once, when the leg goes away (hung up, dropped, closed). */
  onClose(listener: (reason: string) => void): void;
  close(reason: string): void;
  /** Called once the bridge has joined the leg to the other side: a built-in party starts talking. */
  connected?(): void;
  /** The browser says it plays this leg's audio `bufferedMs` later than its link needs (docs/calls.md#catching-up); legs that can act on it do. */
  catchUpPlayout?(bufferedMs: number): void;
}

/** The listener bookkeeping every leg shares. */
export abstract class BaseLeg implements CallLeg {
  abstract readonly kind: CallLeg['kind'];
  abstract readonly sampleRate: CallSampleRate;
  private frameListeners: ((frame: Int16Array) => void)[] = [];
  private closeListeners: ((reason: string) => void)[] = [];
  private closed = false;

  abstract send(frame: Int16Array): void;

  onFrame(listener: (frame: Int16Array) => void) {
    this.frameListeners.push(listener);
  }

  onClose(listener: (reason: string) => void) {
    if (this.closed) listener('closed');
    else this.closeListeners.push(listener);
  }

  get isClosed() {
    return this.closed;
  }

  close(reason: string) {
    if (this.closed) return;
    this.closed = true;
    this.release(reason);
    const listeners = this.closeListeners;
    this.closeListeners = [];
    this.frameListeners = [];
    for (const listener of listeners) listener(reason);
  }

  protected emitFrame(frame: Int16Array) {
    for (const listener of this.frameListeners) listener(frame);
  }

  /** Frees what the leg holds (timers, sockets); called once by close(). */
  protected abstract release(reason: string): void;
}
