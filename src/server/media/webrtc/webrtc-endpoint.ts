import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE } from '../../../common/media';
import { MediaMetrics } from '../../metrics/media-meter';
import { withOpusParameters, withoutSsrc } from './answer-sdp';
import { renumberWeriftDtlsRetransmissions } from './dtls-record-numbers';
import { guardIce } from './ice-guard';
import { acceptableOffer, MediaOfferError } from './offer-checks';
import { WebRtcLeg } from './webrtc-leg';
import { WeriftAudioPeer } from './werift-peer';

export { MediaOfferError } from './offer-checks';

export interface WebRtcSettings {
  /** The UDP ports the instance's peer connections use, inclusive; null: any free port. */
  portRange: readonly [number, number] | null;
  /** An address to announce in candidates (public address, or 1:1 NAT); null: the host's own. */
  publicAddress: string | null;
  /** A connected peer silent (no RTP, ICE consent failed) this long is gone: its leg closes. 10 s. */
  disconnectTimeoutMs?: number;
  /** An answered offer not connected after this long is closed. 15 s. */
  connectTimeoutMs?: number;
}

/** Where an answer and its leg log: the call's own log, whose lines carry its ids (calls/call-log.ts). */
interface CallAudioLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const DISCONNECT_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;
/** Each step of an answer takes milliseconds (gathering binds one UDP socket an address); longer is stuck. */
const STEP_TIMEOUT_MS = 5_000;
const SHUTTING_DOWN = 'The server is shutting down';

/**
 * The server's end of browsers' WebRTC audio (docs/calls.md#media, docs/decisions/020): answers
 * each browser's offer with a werift peer connection of its own and hands out the leg that carries
 * its audio. Candidates are gathered before the answer is sent (no trickle), one UDP port from
 * `portRange` for each address announced (see candidateAddresses).
 */
export class WebRtcEndpoint {
  private readonly peers = new Set<WeriftAudioPeer>();
  private readonly legs = new Set<WebRtcLeg>();
  /** Gatherings run one at a time (see gather). */
  private gathering: Promise<unknown> = Promise.resolve();
  private readonly shutdown = new AbortController();

  constructor(
    private readonly settings: WebRtcSettings,
    /** Counts the legs' frames (docs/operations.md#metrics). */
    private readonly media = new MediaMetrics(),
  ) {
    const range = settings.portRange;
    // werift refuses a range of one port (min must be below max).
    if (range && !(range[0] < range[1])) throw new RangeError(`the WebRTC port range ${range[0]}-${range[1]} needs at least two ports`);
    renumberWeriftDtlsRetransmissions();
  }

  /** Peer connections open or closing: each holds UDP ports until its close completes. */
  get openPeers() {
    return this.peers.size;
  }

  /**
   * Answers a browser's offer (full SDP, candidates inside). Throws MediaOfferError, whose message
   * is shown to the user, for an offer it cannot answer; logs it. Resolves with the answer SDP
   * (candidates inside) and the leg. `lowData` caps the leg's Opus bitrate at OPUS_LOW_DATA_BITRATE;
   * `log` is the call's.
   */
  async answer(offerSdp: string, options: { lowData: boolean; log: CallAudioLog }): Promise<{ sdp: string; leg: WebRtcLeg }> {
    try {
      return await this.negotiate(offerSdp, options.lowData, options.log);
    } catch (error) {
      const refusal = error instanceof MediaOfferError ? error : new MediaOfferError('The call audio offer could not be answered');
      options.log.warn({ reason: refusal.message, ...(refusal === error ? {} : { err: error }) }, 'WebRTC offer refused');
      throw refusal;
    }
  }

  /** Closes every peer and releases every UDP port (shutdown). */
  async close() {
    this.shutdown.abort();
    for (const leg of this.legs) leg.close(SHUTTING_DOWN);
    await Promise.all([...this.peers].map((peer) => peer.close()));
  }

  private async negotiate(offerSdp: string, lowData: boolean, log: CallAudioLog) {
    if (this.shutdown.signal.aborted) throw new MediaOfferError(SHUTTING_DOWN);
    const offer = acceptableOffer(offerSdp);
    const connection = new RTCPeerConnection({
      codecs: { audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111 })] },
      iceServers: [],
      iceLite: true,
      icePortRange: this.settings.portRange ? [...this.settings.portRange] : undefined,
      ...this.candidateAddresses(),
    });
    const peer = new WeriftAudioPeer(connection);
    this.peers.add(peer);
    try {
      await this.step(connection.setRemoteDescription({ type: 'offer', sdp: offer }));
      const [transceiver] = connection.getTransceivers();
      if (!transceiver) throw new MediaOfferError('The browser offered no audio');
      await this.step(peer.attach(transceiver));
      await this.gather(connection);
      const sdp = connection.localDescription?.sdp ?? '';
      if (!/^a=candidate:/m.test(sdp)) throw new MediaOfferError('No media port is free on this server');
      // From here to the return nothing waits, so a leg made now is one close() will find.
      if (this.shutdown.signal.aborted) throw new MediaOfferError(SHUTTING_DOWN);
      let refused = 0;
      guardIce(connection, ([host, port]) => {
        refused += 1;
        if (refused === 1) log.warn({ from: `${host}:${port}` }, 'refused unauthenticated traffic at a WebRTC port');
      });
      const timing = { connectTimeoutMs: this.settings.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, disconnectTimeoutMs: this.settings.disconnectTimeoutMs ?? DISCONNECT_TIMEOUT_MS };
      const leg = new WebRtcLeg(peer, { bitrate: lowData ? OPUS_LOW_DATA_BITRATE : OPUS_BITRATE, ...timing }, this.media.stream('webrtc'));
      this.legs.add(leg);
      leg.onClose((reason) => {
        log.info({ reason, ...leg.stats, refusedDatagrams: refused }, 'WebRTC leg closed');
        this.legs.delete(leg);
        void peer.close().then(() => this.peers.delete(peer));
      });
      return { sdp: withoutSsrc(withOpusParameters(sdp)), leg };
    } catch (error) {
      await peer.close();
      this.peers.delete(peer);
      throw error;
    }
  }

  /**
   * The addresses the answer's candidates announce, one UDP socket and port each: the public
   * address alone when there is one, otherwise every address of the host's own but loopback and
   * link-local (IPv4 and IPv6). werift binds every candidate's socket to all interfaces, so what a
   * 1:1 NAT forwards to the host reaches the socket announced with the public address, and no SDP
   * needs rewriting.
   */
  private candidateAddresses() {
    const { publicAddress } = this.settings;
    return publicAddress ? { iceUseIpv4: false, iceUseIpv6: false, iceAdditionalHostAddresses: [publicAddress] } : {};
  }

  /**
   * Sets the answer, which gathers the candidates. One peer gathers at a time: werift finds a
   * free port in the range by binding and releasing it before binding it for good, so two peers
   * gathering at once could both pick a port, and the second bind would fail outside any handler.
   */
  private gather(connection: RTCPeerConnection): Promise<void> {
    const run = this.gathering.then(() => this.step(connection.createAnswer().then((answer) => connection.setLocalDescription(answer))));
    this.gathering = run.catch(() => {});
    return run.then(() => undefined);
  }

  /**
   * One werift step of an answer, given up when it takes too long or the endpoint closes: a peer
   * connection closed in the middle of applying an offer never settles it, and a step that never
   * ends would hold every later gathering behind it.
   */
  private async step<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {});
    const { signal } = this.shutdown;
    let timer: NodeJS.Timeout | undefined;
    let stop: (() => void) | undefined;
    const givenUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new MediaOfferError('The server could not open the call audio')), STEP_TIMEOUT_MS);
      stop = () => reject(new MediaOfferError(SHUTTING_DOWN));
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    try {
      return await Promise.race([work, givenUp]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop!);
    }
  }
}
