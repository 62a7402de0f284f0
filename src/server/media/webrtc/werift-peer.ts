import { randomInt } from 'node:crypto';
import { MediaStreamTrack, RtcpRrPacket, RtcpSrPacket, RtpHeader, RtpPacket, type RtcpPacket, type RTCPeerConnection, type RTCRtpTransceiver } from 'werift';
import type { OutgoingRtp } from './rtp-sending';
import type { AudioPeer, PeerState } from './webrtc-leg';

const LEG_STATES: readonly string[] = ['connected', 'disconnected', 'failed', 'closed'] satisfies PeerState[];

/**
 * A werift peer connection as a leg sees it. Made before the browser's offer is applied: werift
 * announces the browser's track while applying it (or at the first packet, when the offer names no
 * SSRC), and the packets of a track announced before anyone listens would be lost.
 */
export class WeriftAudioPeer implements AudioPeer {
  private stateListener: (state: PeerState) => void = () => {};
  private rtpListener: (ssrc: number, sequenceNumber: number, payload: Uint8Array) => void = () => {};
  private reportListener: (fractionLost: number | undefined) => void = () => {};
  private transceiver: RTCRtpTransceiver | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly connection: RTCPeerConnection) {
    connection.connectionStateChange.subscribe((state) => {
      if (LEG_STATES.includes(state)) this.stateListener(state as PeerState);
    });
    connection.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => this.rtpListener(rtp.header.ssrc, rtp.header.sequenceNumber, rtp.payload));
    });
  }

  /** Sends and receives on the offer's audio transceiver, once the offer is applied. */
  async attach(transceiver: RTCRtpTransceiver) {
    this.transceiver = transceiver;
    transceiver.setDirection('sendrecv');
    // The track only names our stream in the answer (msid); packets go to the sender directly.
    await transceiver.sender.replaceTrack(new MediaStreamTrack({ kind: 'audio' }));
    const report = (packet: RtcpPacket) => this.reportListener(this.fractionLost(packet));
    // werift hands a sender report (a browser that sends) to the receiver, a receiver report to the sender.
    transceiver.receiver.onRtcp.subscribe(report);
    transceiver.sender.onRtcp.subscribe(report);
  }

  onState(listener: (state: PeerState) => void) {
    this.stateListener = listener;
  }

  onRtp(listener: (ssrc: number, sequenceNumber: number, payload: Uint8Array) => void) {
    this.rtpListener = listener;
  }

  onReport(listener: (fractionLost: number | undefined) => void) {
    this.reportListener = listener;
  }

  sendRtp({ sequenceNumber, timestamp, marker, payload }: OutgoingRtp) {
    const sender = this.transceiver?.sender;
    if (!sender) return;
    // werift sets the SSRC and the negotiated payload type; sending fails only once the transport is gone.
    sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber, timestamp, marker }), payload)).catch(() => {});
  }

  /**
   * Our packets from now on go under a new SSRC. Our answer names none (answer-sdp.ts), so the
   * browser takes it as the same track's new stream, with a jitter buffer of its own.
   */
  restartStream() {
    const sender = this.transceiver?.sender;
    // werift types the SSRC read-only, but it is a plain field that every packet and sender report reads as it goes.
    if (sender) (sender as { ssrc: number }).ssrc = randomInt(1, 0x1_0000_0000);
  }

  close() {
    this.closing ??= this.connection.close().catch(() => {});
    return this.closing;
  }

  /** The share of our packets a report block about our stream says were lost (RFC 3550 §6.4.1). */
  private fractionLost(packet: RtcpPacket): number | undefined {
    if (packet.type !== RtcpRrPacket.type && packet.type !== RtcpSrPacket.type) return undefined;
    const ours = (packet as RtcpRrPacket | RtcpSrPacket).reports.find((block) => block.ssrc === this.transceiver?.sender.ssrc);
    return ours === undefined ? undefined : ours.fractionLost / 256;
  }
}
