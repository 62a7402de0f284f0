import { Encoder } from '@evan/opus';

/**
 * Ogg Opus files (RFC 7845) from mono 16-bit samples, through the Opus build the server already
 * uses: a few kilobytes a second, played by every current browser.
 */

const OPUS_GET_LOOKAHEAD = 4027;
/** Ogg Opus counts time in 48 kHz samples whatever rate was encoded. */
const GRANULE_RATE = 48_000;
const PACKETS_PER_PAGE = 50;
const SERIAL = 0x566f786c;

const OGG_CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n << 24;
  for (let k = 0; k < 8; k += 1) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  return c >>> 0;
});

/** Ogg's CRC-32: polynomial 0x04c11db7, no reflection, starting at 0. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

interface Page {
  packets: Uint8Array[];
  granule: number;
  flags: number;
}

function oggPage({ packets, granule, flags }: Page, sequence: number): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(255, left));
      if (left < 255) break;
    }
  }
  if (lacing.length > 255) throw new RangeError(`an Ogg page holds 255 segments, not ${lacing.length}`);
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'ascii');
  header[5] = flags;
  header.writeBigInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(SERIAL, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  header.set(lacing, 27);
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

function opusHead(preSkip: number, sampleRate: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(sampleRate, 12);
  return head;
}

function opusTags(vendor: string): Buffer {
  const vendorBytes = Buffer.from(vendor, 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendorBytes.length + 4);
  tags.write('OpusTags', 0, 'ascii');
  tags.writeUInt32LE(vendorBytes.length, 8);
  vendorBytes.copy(tags, 12);
  return tags;
}

/** Encodes mono samples at 16 kHz or 8 kHz as an Ogg Opus file at about `bitrate` bits per second. */
export function encodeOggOpus(samples: Int16Array, sampleRate: 16_000 | 8_000, bitrate: number): Buffer {
  const encoder = new Encoder({ channels: 1, sample_rate: sampleRate, application: 'audio' });
  encoder.signal = 'voice';
  encoder.complexity = 10;
  encoder.bitrate = bitrate;
  const lookahead = encoder.ctl(OPUS_GET_LOOKAHEAD);
  const toGranule = GRANULE_RATE / sampleRate;
  const frame = sampleRate / 50;
  // The decoder drops the encoder's lookahead at the start, so the input runs that much longer.
  const frames = Math.ceil((samples.length + lookahead) / frame);
  const padded = new Int16Array(frames * frame);
  padded.set(samples);
  const pages: Page[] = [
    { packets: [opusHead(lookahead * toGranule, sampleRate)], granule: 0, flags: 0x02 },
    { packets: [opusTags('Voxline scripts/render-voice-samples.ts')], granule: 0, flags: 0 },
  ];
  for (let first = 0; first < frames; first += PACKETS_PER_PAGE) {
    const last = Math.min(frames, first + PACKETS_PER_PAGE);
    const packets: Uint8Array[] = [];
    for (let i = first; i < last; i += 1) packets.push(encoder.encode(padded.subarray(i * frame, (i + 1) * frame)).slice());
    const end = last === frames;
    // The last page's position ends the stream where the input ended, trimming the padding.
    const decoded = end ? samples.length + lookahead : last * frame;
    pages.push({ packets, granule: decoded * toGranule, flags: end ? 0x04 : 0 });
  }
  return Buffer.concat(pages.map((page, sequence) => oggPage(page, sequence)));
}
