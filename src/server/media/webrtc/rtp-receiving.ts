import { WIDEBAND_RATE } from '../../../common/calls';
import { MAX_OPUS_PACKET_BYTES } from '../../../common/media';
import { StreamMeter } from '../../metrics/media-meter';
import { OpusFrameDecoder } from '../opus/opus-codec';
import { LossConcealment } from './loss-concealment';
import { RtpSequence } from './rtp-sequence';

/** What a receiver counts. */
export interface ReceivingStats {
  packetsIn: number;
  /** Opus payload bytes, RTP headers not counted. */
  bytesIn: number;
  concealedFrames: number;
  lateOrDuplicate: number;
  /** Empty, oversized or undecodable payloads: dropped, and concealed like a lost packet. */
  malformed: number;
}

/**
 * Turns the Opus RTP packets of one browser into 16 kHz frames as they arrive: a short run of lost
 * packets is filled with concealment frames before the packet that ends it, and a late,
 * duplicate or malformed packet is dropped and counted. Nothing is held back for timing; the next
 * hop's jitter buffer (the browser's, at the far end) keeps time.
 */
export class RtpAudioReceiving {
  private readonly decoder = new OpusFrameDecoder(WIDEBAND_RATE);
  private readonly concealment = new LossConcealment(WIDEBAND_RATE);
  private readonly sequence = new RtpSequence();
  private ssrc: number | null = null;

  constructor(
    private readonly stats: ReceivingStats,
    /** Called with each frame, lent until it returns. */
    private readonly emit: (frame: Int16Array) => void,
    private readonly meter = new StreamMeter(),
  ) {}

  receive(ssrc: number, sequenceNumber: number, payload: Uint8Array) {
    this.stats.packetsIn += 1;
    this.stats.bytesIn += payload.byteLength;
    if (ssrc !== this.ssrc) {
      this.ssrc = ssrc;
      this.sequence.reset();
    }
    const arrival = this.sequence.place(sequenceNumber);
    if (arrival.kind === 'late') {
      this.stats.lateOrDuplicate += 1;
      return;
    }
    const frame = payload.byteLength > 0 && payload.byteLength <= MAX_OPUS_PACKET_BYTES ? this.decoder.decode(payload) : null;
    if (frame === null) {
      this.stats.malformed += 1;
      return;
    }
    this.sequence.accept(sequenceNumber);
    if (arrival.kind === 'resync') this.concealment.silence();
    else {
      for (let i = 0; i < arrival.missing; i += 1) {
        this.stats.concealedFrames += 1;
        this.meter.concealed();
        this.emit(this.concealment.conceal());
      }
    }
    // After a resync the packets' spacing is unknown: the jitter estimate resumes from this one.
    this.meter.frameIn(arrival.kind === 'resync' ? 0 : arrival.missing + 1);
    this.concealment.play(frame);
    this.emit(frame);
  }
}
