import { WIDEBAND_RATE } from '../../../common/calls';
import { StreamMeter } from '../../metrics/media-meter';
import { BaseLeg } from '../leg';
import { RtpAudioReceiving } from './rtp-receiving';
import { RtpAudioSending, type OutgoingRtp } from './rtp-sending';
import { PlayoutCatchUp } from './playout-catch-up';
import { bitrateAfterReport } from './send-bitrate';

export const COULD_NOT_CONNECT = 'The call audio could not connect';
export const CONNECTION_LOST = 'The connection to your browser was lost';

/** The states of a peer connection that matter to its leg. */
export type PeerState = 'connected' | 'disconnected' | 'failed' | 'closed';

/** What a leg needs of its peer connection; werift-peer.ts gives it werift's. */
export interface AudioPeer {
  onState(listener: (state: PeerState) => void): void;
  /** Each RTP packet of the browser's audio, decrypted; the payload is only read. */
  onRtp(listener: (ssrc: number, sequenceNumber: number, payload: Uint8Array) => void): void;
  /** Each RTCP report of the browser's, with the share of our packets it says it lost, when it says. */
  onReport(listener: (fractionLost: number | undefined) => void): void;
  sendRtp(packet: OutgoingRtp): void;
  /** Sends what follows under a new SSRC (docs/calls.md#catching-up). */
  restartStream(): void;
  /** Closes the connection and frees its ports; never rejects. */
  close(): Promise<void>;
}

export interface WebRtcLegOptions {
  /** The Opus bitrate sent, and its cap while it follows the browser's loss reports. */
  bitrate: number;
  connectTimeoutMs: number;
  disconnectTimeoutMs: number;
}

/**
 * A browser's call audio over WebRTC (docs/calls.md#media): Opus in RTP both ways, decoded to and
 * encoded from 16 kHz frames. Audio flows only once ICE and DTLS are up; a connection that does not
 * come up in time, or that drops or falls silent once up, closes the leg.
 */
export class WebRtcLeg extends BaseLeg {
  readonly kind = 'browser' as const;
  readonly sampleRate = WIDEBAND_RATE;
  readonly stats = { packetsIn: 0, packetsOut: 0, bytesIn: 0, bytesOut: 0, concealedFrames: 0, lateOrDuplicate: 0, malformed: 0, catchUpRequests: 0, streamRestarts: 0 };
  private readonly receiving: RtpAudioReceiving;
  private readonly sending: RtpAudioSending;
  /** ICE and DTLS are up. (`connected` is CallLeg's word for being joined by the bridge.) */
  private up = false;
  private connectedListeners: (() => void)[] = [];
  private readonly connectTimer: NodeJS.Timeout;
  private silenceTimer: NodeJS.Timeout | undefined;
  private readonly catchUp = new PlayoutCatchUp();

  constructor(
    private readonly peer: AudioPeer,
    private readonly options: WebRtcLegOptions,
    private readonly meter = new StreamMeter(),
  ) {
    super();
    this.receiving = new RtpAudioReceiving(this.stats, (frame) => this.emitFrame(frame), meter);
    this.sending = new RtpAudioSending(this.stats, options.bitrate, (packet) => peer.sendRtp(packet));
    this.connectTimer = setTimeout(() => this.close(COULD_NOT_CONNECT), options.connectTimeoutMs);
    peer.onState((state) => {
      if (state === 'connected') this.becomeConnected();
      else this.close(this.up ? CONNECTION_LOST : COULD_NOT_CONNECT);
    });
    peer.onRtp((ssrc, sequenceNumber, payload) => {
      if (!this.up || this.isClosed) return;
      this.silenceTimer?.refresh();
      this.receiving.receive(ssrc, sequenceNumber, payload);
    });
    peer.onReport((fractionLost) => {
      if (!this.up || this.isClosed) return;
      this.silenceTimer?.refresh();
      if (fractionLost !== undefined) this.sending.bitrate = bitrateAfterReport(this.sending.bitrate, fractionLost, options.bitrate);
    });
  }

  /** Called once, when ICE and DTLS are up and audio can flow; at once if they already are; never once closed. */
  onConnected(listener: () => void) {
    if (this.isClosed) return;
    if (this.up) listener();
    else this.connectedListeners.push(listener);
  }

  /** The bitrate sent now: the cap, or less while the browser reports loss. */
  get bitrate() {
    return this.sending.bitrate;
  }

  /** The browser plays our audio `bufferedMs` late on a link that no longer needs it: its jitter buffer starts afresh at the next fitting moment. */
  catchUpPlayout(bufferedMs: number) {
    if (!this.up || this.isClosed) return;
    this.stats.catchUpRequests += 1;
    this.catchUp.request(bufferedMs, performance.now());
  }

  send(frame: Int16Array) {
    if (!this.up || this.isClosed) return;
    if (this.catchUp.restartBefore(frame, performance.now())) {
      this.peer.restartStream();
      this.sending.restart();
      this.stats.streamRestarts += 1;
    }
    this.sending.send(frame);
    this.meter.frameOut();
  }

  private becomeConnected() {
    if (this.up || this.isClosed) return;
    this.up = true;
    clearTimeout(this.connectTimer);
    // Refreshed by every packet and report: a browser that vanished without a word sends neither.
    this.silenceTimer = setTimeout(() => this.close(CONNECTION_LOST), this.options.disconnectTimeoutMs);
    const listeners = this.connectedListeners;
    this.connectedListeners = [];
    for (const listener of listeners) listener();
  }

  protected release() {
    clearTimeout(this.connectTimer);
    clearTimeout(this.silenceTimer);
    this.connectedListeners = [];
    this.receiving.close();
    void this.peer.close();
  }
}
