import type { WebSocket } from 'ws';
import { frameBytes, type CallSampleRate } from '../../common/calls';
import { BaseLeg } from './leg';
import { frameFromMessage, sendFrame } from './socket-frames';

/** A browser tab's media websocket: one binary message per 20 ms frame, both ways. */
export class BrowserLeg extends BaseLeg {
  readonly kind = 'browser' as const;
  /** Frames of the wrong size, dropped rather than played (docs/calls.md#media). */
  droppedFrames = 0;

  constructor(
    private readonly socket: WebSocket,
    readonly sampleRate: CallSampleRate,
  ) {
    super();
    const expected = frameBytes(sampleRate);
    socket.on('message', (data, isBinary) => {
      if (!isBinary || !Buffer.isBuffer(data) || data.length !== expected) {
        this.droppedFrames += 1;
        return;
      }
      this.emitFrame(frameFromMessage(data));
    });
    socket.on('close', () => this.close('The browser disconnected'));
    socket.on('error', () => this.close('The browser connection failed'));
  }

  send(frame: Int16Array) {
    if (this.isClosed || this.socket.readyState !== this.socket.OPEN) return;
    sendFrame(this.socket, frame);
  }

  protected release(reason: string) {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(1000, reason.slice(0, 120));
    }
  }
}
