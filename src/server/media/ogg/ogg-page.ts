/**
 * Ogg pages (RFC 3533) as Ogg Opus (RFC 7845) uses them: one logical stream, whole packets per page.
 */

export const OGG_FLAG_BEGINNING = 0x02;
export const OGG_FLAG_END = 0x04;
/** The serial number of the one logical stream each file holds ("Voxl"). */
const OGG_SERIAL = 0x566f786c;
const HEADER_BYTES = 27;
export const MAX_SEGMENTS = 255;

const OGG_CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n << 24;
  for (let k = 0; k < 8; k += 1) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  return c >>> 0;
});

/** Ogg's CRC-32: polynomial 0x04c11db7, no reflection, starting at 0. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i += 1) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ bytes[i]!) & 0xff]!) >>> 0;
  return crc;
}

/** How many lacing values (segments) a packet of `length` bytes takes. */
export function segmentsOf(length: number): number {
  return Math.floor(length / 255) + 1;
}

/**
 * One page holding `body` (the packets back to back) laced by `lengths`, its CRC set. The result is
 * a new Buffer the caller may keep: pages are written about once a second, not per frame.
 */
export function oggPage(body: Uint8Array, lengths: ArrayLike<number>, count: number, granule: number, flags: number, sequence: number): Buffer {
  let segments = 0;
  for (let i = 0; i < count; i += 1) segments += segmentsOf(lengths[i]!);
  if (segments > MAX_SEGMENTS) throw new RangeError(`an Ogg page holds ${MAX_SEGMENTS} segments, not ${segments}`);
  const page = Buffer.allocUnsafe(HEADER_BYTES + segments + body.length);
  page.write('OggS', 0, 'ascii');
  page[4] = 0;
  page[5] = flags;
  page.writeBigInt64LE(BigInt(granule), 6);
  page.writeUInt32LE(OGG_SERIAL, 14);
  page.writeUInt32LE(sequence, 18);
  page.writeUInt32LE(0, 22);
  page[26] = segments;
  let at = HEADER_BYTES;
  for (let i = 0; i < count; i += 1) {
    for (let left = lengths[i]!; ; left -= 255) {
      page[at++] = Math.min(255, left);
      if (left < 255) break;
    }
  }
  page.set(body, at);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** The identification header: channel mapping family 0 (mono or stereo). */
export function opusHead(channels: 1 | 2, preSkip: number, sampleRate: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head[8] = 1;
  head[9] = channels;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(sampleRate, 12);
  return head;
}

/** The comment header: a vendor string and no comments. */
export function opusTags(vendor: string): Buffer {
  const vendorBytes = Buffer.from(vendor, 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendorBytes.length + 4);
  tags.write('OpusTags', 0, 'ascii');
  tags.writeUInt32LE(vendorBytes.length, 8);
  vendorBytes.copy(tags, 12);
  return tags;
}
