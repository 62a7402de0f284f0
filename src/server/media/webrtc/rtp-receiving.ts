import { WIDEBAND_RATE } from '../../../common/calls';
import { StreamMeter } from '../../metrics/media-meter';
import { OpusLossDecoder } from '../opus/opus-loss-decoder';
import { RtpSequence } from './rtp-sequence';

/** What a receiver counts. */
export interface ReceivingStats {
  packetsIn: number;
  /** Opus payload bytes, RTP headers not counted. */
  bytesIn: number;
  concealedFrames: number;
  lateOrDuplicate: number;
  /** Empty, oversized, not 20 ms or undecodable payloads: dropped, and concealed like a lost packet. */
  malformed: number;
}

/** How long the audio that returns after a gap too long to conceal takes to rise out of silence. */
const RISE_SAMPLES = 80;

/** Fades the frame's first 5 ms in: after a long gap the listener has heard silence, and a frame at full swing would click. */
function riseFromSilence(frame: Int16Array) {
  for (let i = 0; i < RISE_SAMPLES; i += 1) frame[i] = Math.round((frame[i]! * i) / RISE_SAMPLES);
}

/**
 * Turns the Opus RTP packets of one browser into 16 kHz frames as they arrive. A short run of
 * lost packets is filled before the packet that ends it: libopus conceals all but the last, and
 * rebuilds the last from that packet's in-band FEC when the browser sent some. A late or duplicate
 * packet is dropped; a malformed one is concealed like a lost one. Nothing is held back for
 * timing; the next hop's jitter buffer (the browser's, at the far end) keeps time.
 */
export class RtpAudioReceiving {
  private readonly decoder = new OpusLossDecoder(WIDEBAND_RATE);
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
    if (!OpusLossDecoder.accepts(payload)) {
      this.stats.malformed += 1;
      return;
    }
    this.sequence.accept(sequenceNumber);
    const missing = arrival.kind === 'resync' ? 0 : arrival.missing;
    for (let lost = 1; lost <= missing; lost += 1) {
      this.stats.concealedFrames += 1;
      this.meter.concealed();
      this.emit(lost < missing ? this.decoder.conceal() : this.decoder.recover(payload));
    }
    // After a resync the packets' spacing is unknown: the jitter estimate resumes from this one.
    this.meter.frameIn(arrival.kind === 'resync' ? 0 : missing + 1);
    const frame = this.decoder.decode(payload);
    if (frame) {
      if (arrival.kind === 'resync') riseFromSilence(frame);
      this.emit(frame);
    } else {
      // It looked like Opus but libopus could not read it: its moment is concealed as a loss's.
      this.stats.malformed += 1;
      this.emit(this.decoder.conceal());
    }
  }

  /** Frees the decoder's memory; nothing is received after. */
  close() {
    this.decoder.close();
  }
}
