import { Decoder } from '@evan/opus';
import { WIDEBAND_RATE } from '../../common/calls';

/** Opus keeps time at 48 kHz whatever rate it is decoded at (RFC 7845 §4). */
const OPUS_CLOCK = 48_000;

/** What an Ogg Opus file holds that cannot be played: the message says what. */
export class OggOpusError extends Error {}

/** The packets of an Ogg file's first logical stream, and the last page's granule position. */
function oggPackets(bytes: Buffer): { packets: Buffer[]; lastGranule: bigint } {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  let serial: number | null = null;
  let lastGranule = -1n;
  let offset = 0;
  while (offset + 27 <= bytes.length) {
    if (bytes.toString('ascii', offset, offset + 4) !== 'OggS') throw new OggOpusError('not an Ogg file');
    const segments = bytes[offset + 26]!;
    const tableEnd = offset + 27 + segments;
    if (tableEnd > bytes.length) throw new OggOpusError('the Ogg file is cut short');
    const pageSerial = bytes.readUInt32LE(offset + 14);
    serial ??= pageSerial;
    let body = tableEnd;
    for (let i = 0; i < segments; i += 1) {
      const length = bytes[offset + 27 + i]!;
      if (body + length > bytes.length) throw new OggOpusError('the Ogg file is cut short');
      if (pageSerial === serial) {
        pending.push(bytes.subarray(body, body + length));
        // A segment shorter than 255 bytes ends its packet; 255 says the packet goes on.
        if (length < 255) {
          packets.push(Buffer.concat(pending));
          pending = [];
        }
      }
      body += length;
    }
    if (pageSerial === serial) {
      const granule = bytes.readBigInt64LE(offset + 6);
      if (granule >= 0n) lastGranule = granule;
    }
    offset = body;
  }
  if (packets.length === 0) throw new OggOpusError('not an Ogg file');
  return { packets, lastGranule };
}

/**
 * Decodes an Ogg Opus file (mono or stereo, any Opus packet length) to mono 16-bit PCM at 16 kHz,
 * the rate of the server's calls: the encoder's pre-skip and the last page's end trim are honoured,
 * so the samples are the file's own. Throws OggOpusError for anything else.
 */
export function decodeOggOpus(bytes: Buffer): Int16Array {
  const { packets, lastGranule } = oggPackets(bytes);
  const head = packets[0]!;
  if (head.length < 19 || head.toString('ascii', 0, 8) !== 'OpusHead') throw new OggOpusError('the Ogg file does not hold Opus audio');
  const channels = head[9]!;
  const preSkip = head.readUInt16LE(10);
  if (head[18] !== 0 || (channels !== 1 && channels !== 2)) throw new OggOpusError('only mono or stereo Opus is played');
  const decoder = new Decoder({ channels, sample_rate: WIDEBAND_RATE });
  const ratio = OPUS_CLOCK / WIDEBAND_RATE;
  const chunks: Int16Array[] = [];
  let total = 0;
  // packets[1] is OpusTags; audio follows.
  for (const packet of packets.slice(2)) {
    let pcm: Uint8Array;
    try {
      pcm = decoder.decode(packet);
    } catch {
      throw new OggOpusError('the Opus audio does not decode');
    }
    const interleaved = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength >> 1);
    const mono = new Int16Array(interleaved.length / channels);
    for (let i = 0; i < mono.length; i += 1) mono[i] = channels === 1 ? interleaved[i]! : (interleaved[2 * i]! + interleaved[2 * i + 1]!) >> 1;
    chunks.push(mono);
    total += mono.length;
  }
  const all = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  const start = Math.min(all.length, Math.round(preSkip / ratio));
  const end = lastGranule > 0n ? Math.min(all.length, Math.round(Number(lastGranule) / ratio)) : all.length;
  return all.slice(start, Math.max(start, end));
}
