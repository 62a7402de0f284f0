import { NARROWBAND_RATE, type CallSampleRate } from '../../common/calls';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE, type MediaConfig } from '../../common/media';
import { canCarryOpus } from '../audio/opus-socket-codec';
import type { Signalling } from '../lib/realtime';
import type { CallMediaLink } from './call-media-link';
import { browserMediaPlatform, type MediaPlatform } from './media-platform';
import { SocketMedia } from './socket-media';
import { WebRtcMedia } from './webrtc-media';

export interface CallMediaOptions {
  callId: string;
  /** Path of the call's media websocket, `/api/v1/calls/:id/media`: the fallback. */
  mediaPath: string;
  /** The tab's realtime socket, which carries the WebRTC offer and answer; null while there is none. */
  signalling: Signalling | null;
  /** A microphone stream from openMicrophone(); it is stopped when the media stops or fails to start. */
  stream: MediaStream;
  /** The call's rate: 8 kHz is Low Data Mode, which caps Opus's bitrate rather than its rate. */
  sampleRate: CallSampleRate;
  /**
   * The audio stopped without close() being called: the server ended the call or the network
   * dropped. `signedOut`: the server closed the media socket because the session ended, which
   * ended the call.
   */
  onDrop(signedOut: boolean): void;
}

async function readConfig(platform: MediaPlatform): Promise<MediaConfig | null> {
  try {
    return await platform.mediaConfig();
  } catch (error) {
    console.warn('The media config could not be read; the call audio uses the websocket:', (error as Error).message);
    return null;
  }
}

/**
 * The audio of one call, the same for calls made and calls received (docs/calls.md#media): WebRTC
 * when the server offers it and it connects in time; otherwise the call's media websocket, with
 * Opus where the browser has WebCodecs, else PCM.
 */
export const CallMedia = {
  async connect(options: CallMediaOptions, platform: MediaPlatform = browserMediaPlatform): Promise<CallMediaLink> {
    const { callId, signalling, stream, sampleRate, onDrop } = options;
    const bitrate = sampleRate === NARROWBAND_RATE ? OPUS_LOW_DATA_BITRATE : OPUS_BITRATE;
    const config = await readConfig(platform);
    const { createPeer } = platform;
    if (config?.webrtc && createPeer && signalling) {
      const media = await WebRtcMedia.connect({ callId, signalling, stream, iceServers: config.iceServers, bitrate, onDrop }, { ...platform, createPeer });
      if (media) return media;
    }
    const codec = (await canCarryOpus(platform.webCodecs)) ? 'opus' : 'pcm';
    return SocketMedia.connect({ mediaPath: options.mediaPath, stream, sampleRate, codec, bitrate, onDrop }, platform);
  },
};
