import { OggOpusWriter } from '../../src/server/media/ogg/ogg-opus-writer';

/**
 * Ogg Opus files (RFC 7845) from mono 16-bit samples, through the server's streaming writer: a few
 * kilobytes a second, played by every current browser.
 */
export function encodeOggOpus(samples: Int16Array, sampleRate: 16_000 | 8_000, bitrate: number): Buffer {
  const pages: Buffer[] = [];
  const writer = new OggOpusWriter({ channels: 1, sampleRate, bitrate, sink: (page) => pages.push(page) });
  const frame = writer.frameSamples;
  // The decoder drops the encoder's lookahead at the start, so the input runs that much longer.
  const frames = Math.ceil((samples.length + writer.lookahead) / frame);
  const padded = new Int16Array(frames * frame);
  padded.set(samples);
  for (let i = 0; i < frames; i += 1) writer.writeFrame(padded.subarray(i * frame, (i + 1) * frame));
  writer.finish(frames * frame - samples.length - writer.lookahead);
  return Buffer.concat(pages);
}
