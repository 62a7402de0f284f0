import type { CallSampleRate } from '../../common/calls';
import type { MediaConfig } from '../../common/media';
import { CallAudio, type CallAudioEvents } from '../audio/call-audio';
import type { WebCodecs } from '../audio/opus-socket-codec';
import { playRemoteAudio, type RemoteAudio } from '../audio/remote-audio';
import { getMediaConfig } from './get-media-config';

/** The microphone and speakers of a websocket call (CallAudio in the browser); replaceStream switches the microphone mid-call. */
export type WorkletAudio = Pick<CallAudio, 'play' | 'setMuted' | 'stop'> & Partial<Pick<CallAudio, 'replaceStream'>>;

/**
 * What a call's audio reaches outside itself: the server's media config, WebRTC, WebCodecs, the
 * media websocket and the audio worklets. Passed in, so that tests stand in for each part (jsdom
 * has no RTCPeerConnection, WebCodecs or AudioContext).
 */
export interface MediaPlatform {
  mediaConfig(): Promise<MediaConfig>;
  /** Undefined where the browser has no WebRTC. */
  createPeer: ((config: RTCConfiguration) => RTCPeerConnection) | undefined;
  /** The audio codecs this browser can receive, for setCodecPreferences; empty when it cannot say. */
  audioCodecs(): RTCRtpCodec[];
  playRemote(track: MediaStreamTrack): Promise<RemoteAudio>;
  /** Undefined where the browser has no WebCodecs audio. */
  webCodecs: WebCodecs | undefined;
  /** Opens a websocket to `path` on this page's server. */
  openSocket(path: string): WebSocket;
  startAudio(stream: MediaStream, wireRate: CallSampleRate, events: CallAudioEvents): Promise<WorkletAudio>;
}

function browserWebCodecs(): WebCodecs | undefined {
  if (typeof AudioEncoder === 'undefined' || typeof AudioDecoder === 'undefined') return undefined;
  return { AudioEncoder, AudioDecoder, AudioData, EncodedAudioChunk };
}

export const browserMediaPlatform: MediaPlatform = {
  mediaConfig: getMediaConfig,
  createPeer: typeof RTCPeerConnection === 'undefined' ? undefined : (config) => new RTCPeerConnection(config),
  audioCodecs: () => (typeof RTCRtpReceiver === 'undefined' ? [] : (RTCRtpReceiver.getCapabilities('audio')?.codecs ?? [])),
  playRemote: playRemoteAudio,
  webCodecs: browserWebCodecs(),
  openSocket: (path) => new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${path}`),
  startAudio: (stream, wireRate, events) => CallAudio.start(stream, wireRate, events),
};
