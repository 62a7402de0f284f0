import type { MediaTransport } from '../../common/media';
import type { CallMediaStats } from './call-media-stats';

/** The call's audio once connected: WebRtcMedia or SocketMedia in the browser. */
export interface CallMediaLink {
  /** Which way the audio travels, for the call bar. */
  readonly transport: MediaTransport;
  setMuted(muted: boolean): void;
  stats(): Promise<CallMediaStats>;
  /** Stops the audio and closes its connection; onDrop is not called. */
  close(): void;
}
