import { frameSamples, WIDEBAND_RATE } from '../../common/calls';
import { OggOpusWriter } from '../media/ogg/ogg-opus-writer';

/** Voice at 20 kbit/s: about 150 kB a minute, which every current browser plays. */
const VOICEMAIL_BITRATE = 20_000;

/** Mono Ogg Opus at 16 kHz, written as it is spoken: the headers at once, then a page a second to `sink`. */
export function voicemailWriter(sink: (bytes: Buffer) => void): OggOpusWriter {
  return new OggOpusWriter({ channels: 1, sampleRate: WIDEBAND_RATE, bitrate: VOICEMAIL_BITRATE, sink });
}

/** A whole recording at 16 kHz as a mono Ogg Opus file; the last frame is padded with silence. */
export function encodeOggOpus(samples: Int16Array): Buffer {
  const chunks: Buffer[] = [];
  const writer = voicemailWriter((bytes) => chunks.push(bytes));
  const size = frameSamples(WIDEBAND_RATE);
  for (let at = 0; at < samples.length; at += size) {
    const frame = new Int16Array(size);
    frame.set(samples.subarray(at, at + size));
    writer.writeFrame(frame);
  }
  writer.finish();
  return Buffer.concat(chunks);
}
