import { randomInt } from 'node:crypto';
import { WIDEBAND_RATE } from '../../../common/calls';
import { OpusFrameEncoder } from '../opus/opus-codec';

/** Opus's RTP clock runs at 48 kHz whatever the audio's rate (RFC 7587): 960 ticks a 20 ms packet. */
const TICKS_PER_PACKET = 960;

export interface SendingStats {
  packetsOut: number;
  /** Opus payload bytes, RTP headers not counted. */
  bytesOut: number;
}

export interface OutgoingRtp {
  sequenceNumber: number;
  timestamp: number;
  /** Set on the first packet: the start of a talkspurt (RFC 3551 §4.1). */
  marker: boolean;
  /** The packet's own copy of the Opus payload. */
  payload: Buffer;
}

/**
 * Encodes 16 kHz frames to Opus and numbers them as RTP: sequence numbers and timestamps start
 * anywhere (RFC 3550 §5.1) and advance one packet, 960 ticks, a frame.
 */
export class RtpAudioSending {
  private readonly encoder: OpusFrameEncoder;
  private sequenceNumber = randomInt(0x1_0000);
  private timestamp = randomInt(0x1_0000_0000);
  private first = true;

  constructor(
    private readonly stats: SendingStats,
    bitrate: number,
    private readonly write: (packet: OutgoingRtp) => void,
  ) {
    this.encoder = new OpusFrameEncoder(WIDEBAND_RATE, bitrate);
  }

  get bitrate() {
    return this.encoder.bitrate;
  }

  set bitrate(bitrate: number) {
    this.encoder.bitrate = bitrate;
  }

  /** The next packet starts a new stream (a new SSRC, set by the peer): marked as a talkspurt's start. */
  restart() {
    this.first = true;
  }

  /** Encodes one frame, which is only read, and writes its packet. */
  send(frame: Int16Array) {
    const payload = Buffer.from(this.encoder.encode(frame));
    this.stats.packetsOut += 1;
    this.stats.bytesOut += payload.byteLength;
    this.write({ sequenceNumber: this.sequenceNumber, timestamp: this.timestamp, marker: this.first, payload });
    this.first = false;
    this.sequenceNumber = (this.sequenceNumber + 1) & 0xffff;
    this.timestamp = (this.timestamp + TICKS_PER_PACKET) >>> 0;
  }
}
