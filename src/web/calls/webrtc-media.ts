import { WEBRTC_CONNECT_TIMEOUT_MS, type IceServer } from '../../common/media';
import type { ServerMessage } from '../../common/realtime';
import { openMicrophone } from '../audio/call-audio';
import { followMicrophoneChoice } from '../audio/devices/live-microphone';
import type { RemoteAudio } from '../audio/remote-audio';
import type { Signalling } from '../lib/realtime';
import type { CallMediaStats } from './call-media-stats';
import type { CallMediaLink } from './call-media-link';
import type { MediaPlatform } from './media-platform';
import { withOpusParameters } from './opus-sdp';
import { PlayoutDelayWatch, readPlayout } from './playout-delay-watch';
import { noRtpYet, readWebRtcStats, type RtpCounts } from './webrtc-stats';

/** The offer carries its candidates (no trickle), gathered for at most this long. */
const ICE_GATHERING_LIMIT_MS = 1_500;
/** How often the playout delay is read: a late buffer is noticed within a second of the link turning clean. */
const PLAYOUT_CHECK_MS = 500;

export interface WebRtcMediaOptions {
  callId: string;
  signalling: Signalling;
  /** The microphone from openMicrophone(): its processing (echo cancellation, noise suppression, AGC) is the browser's. */
  stream: MediaStream;
  iceServers: IceServer[];
  /** What the browser sends at most, and what the offer asks the server to keep under (bits per second). */
  bitrate: number;
  /** The connection failed after it had connected; `signedOut` when the session's end ended it. */
  onDrop(signedOut: boolean): void;
}

type WebRtcPlatform = Pick<MediaPlatform, 'audioCodecs' | 'playRemote'> & { createPeer: NonNullable<MediaPlatform['createPeer']> };

/**
 * A call's audio over an RTCPeerConnection to the Voxline server (docs/calls.md#media): Opus, mono,
 * in-band FEC, the browser's own jitter buffer, concealment and congestion control. The offer and
 * answer go over the tab's realtime socket.
 */
export class WebRtcMedia implements CallMediaLink {
  readonly transport = 'webrtc';
  private previous: RtpCounts = noRtpYet(Date.now());
  private muted = false;
  private readonly stopFollowingMicrophone: () => void;
  private readonly playoutDelay = new PlayoutDelayWatch();
  private readonly playoutTimer: ReturnType<typeof setInterval>;

  private constructor(
    private readonly peer: RTCPeerConnection,
    private stream: MediaStream,
    private readonly remote: RemoteAudio,
    private readonly stopWatchingSignOut: () => void,
    /** Asks the server to start its stream afresh (media.catchUp). */
    private readonly askToCatchUp: (bufferedMs: number) => void,
  ) {
    this.stopFollowingMicrophone = followMicrophoneChoice(this, openMicrophone);
    this.playoutTimer = setInterval(() => void this.checkPlayout(), PLAYOUT_CHECK_MS);
  }

  /**
   * Answers null, having closed its peer but not the microphone, when the server refuses the offer
   * or the peer is not connected within WEBRTC_CONNECT_TIMEOUT_MS, both the browser's side and the
   * server's (media.connected): the caller falls back to the websocket. Once connected, a failure
   * to play is thrown, the microphone stopped.
   */
  static async connect(options: WebRtcMediaOptions, platform: WebRtcPlatform): Promise<WebRtcMedia | null> {
    const peer = platform.createPeer({ iceServers: options.iceServers, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    let received: MediaStreamTrack;
    try {
      received = await connectPeer(peer, options, platform);
    } catch (error) {
      console.warn('The call audio falls back to the websocket:', (error as Error).message);
      peer.onconnectionstatechange = null;
      peer.close();
      return null;
    }
    let remote: RemoteAudio;
    try {
      remote = await platform.playRemote(received);
    } catch (error) {
      peer.close();
      for (const track of options.stream.getTracks()) track.stop();
      throw error;
    }
    let dropped = false;
    const drop = (signedOut: boolean) => {
      if (dropped) return;
      dropped = true;
      options.onDrop(signedOut);
    };
    // The server ended the call with the session; the peer would only notice much later.
    const media = new WebRtcMedia(peer, options.stream, remote, options.signalling.onSignedOut(() => drop(true)), (bufferedMs) =>
      options.signalling.send({ type: 'media.catchUp', callId: options.callId, bufferedMs }),
    );
    // Not a fallback once connected: the server ends the call when this audio goes away. A
    // 'disconnected' peer may come back by itself.
    peer.onconnectionstatechange = () => {
      if (peer.connectionState === 'failed' || peer.connectionState === 'closed') drop(false);
    };
    if (peer.connectionState === 'failed' || peer.connectionState === 'closed') {
      media.close();
      throw new Error('The call was cut off');
    }
    return media;
  }

  setMuted(muted: boolean) {
    this.muted = muted;
    for (const track of this.stream.getAudioTracks()) track.enabled = !muted;
  }

  /** Another microphone mid-call: the sender's track is replaced, no renegotiation (docs/calls.md#devices). */
  async replaceMicrophone(stream: MediaStream) {
    const [track] = stream.getAudioTracks();
    const sender = this.peer.getSenders().find((candidate) => candidate.track === null || candidate.track.kind === 'audio');
    if (!track || !sender) {
      for (const unused of stream.getTracks()) unused.stop();
      throw new Error('The new microphone has no audio track to send');
    }
    track.enabled = !this.muted;
    await sender.replaceTrack(track);
    for (const old of this.stream.getTracks()) old.stop();
    this.stream = stream;
  }

  async stats(): Promise<CallMediaStats> {
    const { stats, counts } = readWebRtcStats(await this.peer.getStats(), this.previous, Date.now());
    this.previous = counts;
    return stats;
  }

  /** Asks the server to catch up when the audio plays later than the link needs (docs/calls.md#catching-up). */
  private async checkPlayout() {
    let playout;
    try {
      playout = readPlayout(await this.peer.getStats(), Date.now());
    } catch {
      // The peer closed while it was read: the call is ending.
      return;
    }
    const lateByMs = playout && this.playoutDelay.add(playout);
    if (lateByMs) this.askToCatchUp(lateByMs);
  }

  /** Stops the audio and closes the peer; onDrop is not called. */
  close() {
    clearInterval(this.playoutTimer);
    this.stopFollowingMicrophone();
    this.stopWatchingSignOut();
    this.peer.onconnectionstatechange = null;
    this.peer.close();
    for (const track of this.stream.getTracks()) track.stop();
    void this.remote.stop();
  }
}

/**
 * Offers the microphone's track and waits for the connection, the browser's and the server's;
 * answers the received track once both are up. Throws, saying why, when the offer cannot go out
 * or is refused, or time runs out.
 */
async function connectPeer(peer: RTCPeerConnection, { callId, signalling, stream, bitrate }: WebRtcMediaOptions, platform: WebRtcPlatform): Promise<MediaStreamTrack> {
  const [track] = stream.getAudioTracks();
  if (!track) throw new Error('The microphone has no audio track');
  const transceiver = peer.addTransceiver(track, { direction: 'sendrecv', streams: [stream], sendEncodings: [{ maxBitrate: bitrate }] });
  preferOpus(transceiver, platform.audioCodecs());
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe();
      peer.onconnectionstatechange = null;
      outcome();
    };
    const fail = (reason: string) => settle(() => reject(new Error(reason)));
    const timer = setTimeout(() => fail(`WebRTC did not connect within ${WEBRTC_CONNECT_TIMEOUT_MS} ms`), WEBRTC_CONNECT_TIMEOUT_MS);
    // Both ends must be up: the browser's DTLS handshake ends before the server's, which may
    // still stall (a lost final flight), leaving a 'connected' peer that carries nothing.
    let peerUp = false;
    let serverUp = false;
    const resolveWhenBothUp = () => (peerUp && serverUp ? settle(resolve) : undefined);
    const unsubscribe = signalling.subscribe((message: ServerMessage) => {
      if (!('callId' in message) || message.callId !== callId) return;
      if (message.type === 'error') fail(`The server refused WebRTC: ${message.message}`);
      if (message.type === 'media.answer') peer.setRemoteDescription({ type: 'answer', sdp: message.sdp }).catch((error: Error) => fail(`The server's answer was refused: ${error.message}`));
      if (message.type === 'media.connected') {
        serverUp = true;
        resolveWhenBothUp();
      }
    });
    peer.onconnectionstatechange = () => {
      if (peer.connectionState === 'connected') {
        peerUp = true;
        resolveWhenBothUp();
      }
      if (peer.connectionState === 'failed') fail('WebRTC failed to connect');
    };
    offer(peer, bitrate).then(
      (sdp) => {
        if (!settled && !signalling.send({ type: 'media.offer', callId, sdp })) fail('The realtime socket is not connected');
      },
      (error: Error) => fail(`No offer could be made: ${error.message}`),
    );
  });
  return transceiver.receiver.track;
}

async function offer(peer: RTCPeerConnection, bitrate: number): Promise<string> {
  await peer.setLocalDescription(await peer.createOffer());
  await iceGathered(peer);
  return withOpusParameters(peer.localDescription!.sdp, bitrate);
}

function iceGathered(peer: RTCPeerConnection): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      peer.onicegatheringstatechange = null;
      resolve();
    };
    const timer = setTimeout(done, ICE_GATHERING_LIMIT_MS);
    peer.onicegatheringstatechange = () => (peer.iceGatheringState === 'complete' ? done() : undefined);
    if (peer.iceGatheringState === 'complete') done();
  });
}

/** Opus first among the codecs the transceiver takes; the others stay, in the browser's order. */
function preferOpus(transceiver: RTCRtpTransceiver, codecs: RTCRtpCodec[]) {
  const opus = codecs.filter((codec) => codec.mimeType.toLowerCase() === 'audio/opus');
  if (opus.length === 0 || typeof transceiver.setCodecPreferences !== 'function') return;
  transceiver.setCodecPreferences([...opus, ...codecs.filter((codec) => !opus.includes(codec))]);
}
