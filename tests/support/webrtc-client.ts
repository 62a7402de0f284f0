import dgram from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, type RTCIceServer } from 'werift';
import { OpusFrameDecoder, OpusFrameEncoder } from '../../src/server/media/opus/opus-codec';
import { toneFrames } from './dsp/tone-frames';
import { until } from './until';

let stunServer: Promise<string> | undefined;

/**
 * A STUN server on 127.0.0.1 for the test peers. werift, as a full ICE agent, always asks one for
 * its public address, and stun.l.google.com when it is given none; this one answers each binding
 * request with the address it came from (RFC 5389 §7.3, XOR-MAPPED-ADDRESS), so no test reaches out.
 */
function localStunServer(): Promise<string> {
  stunServer ??= new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (request, from) => {
      if (request.length < 20 || request.readUInt16BE(0) !== 0x0001) return;
      const response = Buffer.alloc(32);
      response.writeUInt16BE(0x0101, 0);
      response.writeUInt16BE(12, 2);
      request.copy(response, 4, 4, 20);
      response.writeUInt16BE(0x0020, 20);
      response.writeUInt16BE(8, 22);
      response.writeUInt16BE(0x0001, 24);
      response.writeUInt16BE(from.port ^ 0x2112, 26);
      from.address.split('.').forEach((octet, i) => response.writeUInt8(Number(octet) ^ response[4 + i]!, 28 + i));
      socket.send(response, from.port, from.address);
    });
    socket.unref();
    socket.bind(0, '127.0.0.1', () => resolve(`stun:127.0.0.1:${socket.address().port}`));
  });
  return stunServer;
}

interface ClientOptions {
  iceServers?: RTCIceServer[];
  /** 'relay': only through TURN, as a browser behind a network that blocks direct UDP. */
  iceTransportPolicy?: 'all' | 'relay';
  /** The PEM certificate a TURN server over TLS presents, to be trusted. */
  turnCertificate?: string;
}

/**
 * A browser stand-in for the server's WebRTC endpoint: a werift peer connection on this machine
 * that offers Opus audio as Chromium does (full offer, candidates gathered in it), sends 20 ms
 * Opus packets, and decodes the ones it receives to 16 kHz frames.
 */
export class WebRtcClient {
  readonly connection: RTCPeerConnection;
  /** The frames decoded from the server's packets, in arrival order. */
  readonly heard: Int16Array[] = [];
  /** The SSRC of the server's packets, once per run of packets under it (a new stream starts a new entry). */
  readonly ssrcs: number[] = [];
  private readonly transceiver;
  private readonly encoder = new OpusFrameEncoder(16_000, 32_000);
  private readonly decoder = new OpusFrameDecoder(16_000);
  private sequenceNumber = 0;
  private timer: NodeJS.Timeout | undefined;

  /** With no `iceServers`, it asks the local STUN server for its address; 'relay' goes only through TURN. */
  static async create(options: ClientOptions = {}) {
    return new WebRtcClient({ ...options, iceServers: options.iceServers ?? [{ urls: await localStunServer() }] });
  }

  private constructor({ iceServers, iceTransportPolicy = 'all', turnCertificate }: ClientOptions) {
    this.connection = new RTCPeerConnection({
      codecs: { audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111, parameters: 'minptime=10;useinbandfec=1' })] },
      iceServers,
      iceTransportPolicy,
      // A test's TURN server over TLS has a certificate of its own making.
      turnTlsOptions: turnCertificate ? { ca: turnCertificate } : undefined,
    });
    this.transceiver = this.connection.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendrecv' });
  }

  /** The full offer, its candidates gathered. */
  async offer(): Promise<string> {
    await this.connection.setLocalDescription(await this.connection.createOffer());
    return this.connection.localDescription!.sdp;
  }

  /**
   * Takes the answer, and from then on every RTP packet of the transport, whatever its SSRC, as
   * Chromium takes a new SSRC on an m-line that names none: werift's own routing drops a packet
   * whose SSRC it has not seen.
   */
  async accept(answer: string) {
    await this.connection.setRemoteDescription({ type: 'answer', sdp: answer });
    for (const transport of this.connection.dtlsTransports) {
      transport.onRtp.subscribe((rtp) => {
        if (this.ssrcs.at(-1) !== rtp.header.ssrc) this.ssrcs.push(rtp.header.ssrc);
        const frame = this.decoder.decode(rtp.payload);
        if (frame) this.heard.push(frame.slice());
      });
    }
  }

  async connected(timeoutMs = 10_000) {
    await until(() => this.connection.connectionState === 'connected', timeoutMs);
  }

  /** What it heard from frame `from` on, as Float32 samples at 16 kHz. */
  audio(from = 0): Float32Array {
    const frames = this.heard.slice(from);
    const out = new Float32Array(frames.reduce((n, frame) => n + frame.length, 0));
    let offset = 0;
    for (const frame of frames) {
      for (let i = 0; i < frame.length; i += 1) out[offset + i] = frame[i]! / 32768;
      offset += frame.length;
    }
    return out;
  }

  /** Sends one Opus payload as the next RTP packet. */
  sendPayload(payload: Uint8Array) {
    const sequenceNumber = this.sequenceNumber;
    this.sequenceNumber = (sequenceNumber + 1) & 0xffff;
    const header = new RtpHeader({ payloadType: 111, sequenceNumber, timestamp: sequenceNumber * 960 });
    this.transceiver.sender.sendRtp(new RtpPacket(header, Buffer.from(payload))).catch(() => {});
  }

  /** Sends a tone, a 20 ms packet every 20 ms, until stopped. */
  startTone(frequency: number) {
    const frames = toneFrames(frequency, 16_000, 50);
    let next = 0;
    this.timer = setInterval(() => {
      this.sendPayload(this.encoder.encode(frames[next]!));
      next = (next + 1) % frames.length;
    }, 20);
  }

  stopTone() {
    clearInterval(this.timer);
  }

  /** Goes away without a word, as a browser whose machine dropped off the network: its sockets close, nothing is sent. */
  async vanish() {
    this.stopTone();
    await Promise.all(this.connection.iceTransports.map((transport) => transport.connection.close()));
  }

  async close() {
    this.stopTone();
    await this.connection.close();
  }
}
