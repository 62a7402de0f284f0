import { decodeOggOpusStream, readOggOpus, type OpusDecodeRate } from '../../src/server/voicemail/ogg-opus-audio';

/** What an Ogg Opus file holds: each channel's samples at the rate it was encoded at, pre-skip dropped. */
export interface DecodedOggOpus {
  sampleRate: number;
  channels: Int16Array[];
  durationMs: number;
}

/** The file up to the end of its last whole page: a page cut short (a crash mid-write) is left off. */
function wholePages(bytes: Buffer): Buffer {
  let end = 0;
  while (end + 27 <= bytes.length) {
    const lacingEnd = end + 27 + bytes[end + 26]!;
    if (lacingEnd > bytes.length) break;
    let pageEnd = lacingEnd;
    for (let i = end + 27; i < lacingEnd; i += 1) pageEnd += bytes[i]!;
    if (pageEnd > bytes.length) break;
    end = pageEnd;
  }
  return bytes.subarray(0, end);
}

/**
 * Decodes an Ogg Opus file, or the whole pages of one cut short, as the server does, but at the
 * rate it was encoded at and with each channel apart, as recordings are checked.
 */
export function decodeOggOpus(bytes: Buffer): DecodedOggOpus {
  const stream = readOggOpus(wholePages(bytes));
  const sampleRate = stream.inputSampleRate as OpusDecodeRate;
  const interleaved = decodeOggOpusStream(stream, sampleRate);
  const count = stream.channels;
  const length = interleaved.length / count;
  const channels = Array.from({ length: count }, (_, channel) => Int16Array.from({ length }, (_, i) => interleaved[i * count + channel]!));
  return { sampleRate, channels, durationMs: (length / sampleRate) * 1000 };
}
