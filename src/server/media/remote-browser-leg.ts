import { frameBytes, type CallSampleRate } from '../../common/calls';
import type { Bus, Unsubscribe } from '../bus/bus';
import { BaseLeg } from './leg';
import { frameFromMessage } from './socket-frames';

/** The bus channels of one relayed media socket: frames from the browser, and frames to it. */
export const relayChannels = (relayId: string) => ({ fromBrowser: `media:${relayId}:up`, toBrowser: `media:${relayId}:down` });

/**
 * A browser whose media socket another instance holds (BrowserRelay), as a leg of a call on this
 * one: its frames come and go over the bus, one message per 20 ms frame, unencoded.
 */
export class RemoteBrowserLeg extends BaseLeg {
  readonly kind = 'browser' as const;
  /** Frames of the wrong size, dropped rather than played (CALLS.md). */
  droppedFrames = 0;
  /** Frames the bus would not take (Redis away). */
  lostFrames = 0;
  private readonly channels: ReturnType<typeof relayChannels>;
  private readonly subscription: Promise<Unsubscribe>;

  constructor(
    private readonly bus: Bus,
    relayId: string,
    readonly sampleRate: CallSampleRate,
  ) {
    super();
    this.channels = relayChannels(relayId);
    const expected = frameBytes(sampleRate);
    this.subscription = bus.subscribe(this.channels.fromBrowser, (payload) => {
      if (this.isClosed) return;
      if (payload.length !== expected) {
        this.droppedFrames += 1;
        return;
      }
      this.emitFrame(frameFromMessage(payload));
    });
  }

  /** Resolves once the browser's frames reach this leg. */
  async ready() {
    await this.subscription;
  }

  send(frame: Int16Array) {
    if (this.isClosed) return;
    const bytes = Buffer.allocUnsafe(frame.byteLength);
    bytes.set(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength));
    this.bus.publish(this.channels.toBrowser, bytes).catch(() => {
      this.lostFrames += 1;
    });
  }

  protected release() {
    this.subscription.then((unsubscribe) => unsubscribe()).catch(() => {});
  }
}
