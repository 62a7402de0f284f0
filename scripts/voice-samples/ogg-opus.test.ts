import { Decoder } from '@evan/opus';
import { describe, expect, it } from 'vitest';
import { float32ToInt16 } from '../../src/dsp/pcm';
import { dominantFrequency, sine } from '../../tests/support/dsp/analysis';
import { oggCrc } from '../../src/server/media/ogg/ogg-page';
import { encodeOggOpus } from './ogg-opus';

const rate = 16_000;

interface OggPage {
  flags: number;
  granule: bigint;
  sequence: number;
  packets: Buffer[];
}

/** Reads the pages of an Ogg stream, checking each one's CRC, and joins packets laced over 255 bytes. */
function readOgg(file: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  for (let offset = 0; offset < file.length; ) {
    expect(file.toString('ascii', offset, offset + 4)).toBe('OggS');
    const segments = file[offset + 26]!;
    const lacing = [...file.subarray(offset + 27, offset + 27 + segments)];
    const length = 27 + segments + lacing.reduce((sum, size) => sum + size, 0);
    const page = Buffer.from(file.subarray(offset, offset + length));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    expect(oggCrc(page)).toBe(crc);
    const packets: Buffer[] = [];
    let start = 27 + segments;
    let current: Buffer[] = [];
    for (const size of lacing) {
      current.push(page.subarray(start, start + size));
      start += size;
      if (size < 255) {
        packets.push(Buffer.concat(current));
        current = [];
      }
    }
    pages.push({ flags: page[5]!, granule: page.readBigInt64LE(6), sequence: page.readUInt32LE(18), packets });
    offset += length;
  }
  return pages;
}

describe('oggCrc', () => {
  it("is the CRC-32 of Ogg's specification (CRC-32/POSIX without the final inversion)", () => {
    expect(oggCrc(Buffer.from('123456789', 'ascii'))).toBe(0x89a1897f); // CRC-32/POSIX's check value 0x765e7680, inverted
  });
});

describe('encodeOggOpus', () => {
  const tone = float32ToInt16(sine(440, rate, 1.5 * rate, 0.5));
  const pages = readOgg(encodeOggOpus(tone, rate, 24_000));

  it('starts with the Opus headers on pages of their own and ends the stream on the last page', () => {
    const [head, tags] = pages;
    expect(head?.flags).toBe(0x02);
    expect(head?.packets[0]?.toString('ascii', 0, 8)).toBe('OpusHead');
    expect(head?.packets[0]?.[9]).toBe(1);
    expect(head?.packets[0]?.readUInt32LE(12)).toBe(rate);
    expect(tags?.packets[0]?.toString('ascii', 0, 8)).toBe('OpusTags');
    expect(pages.map((page) => page.sequence)).toEqual(pages.map((_, i) => i));
    expect(pages.at(-1)?.flags).toBe(0x04);
  });

  it('ends at the length of the input after the pre-skip, in 48 kHz samples, and decodes to the same tone', () => {
    const preSkip = pages[0]!.packets[0]!.readUInt16LE(10);
    expect(pages.at(-1)?.granule).toBe(BigInt(preSkip + tone.length * 3));
    const decoder = new Decoder({ channels: 1, sample_rate: rate });
    const decoded = pages.slice(2).flatMap((page) => page.packets.flatMap((packet) => [...new Int16Array(decoder.decode(packet).slice().buffer)]));
    const played = Float32Array.from(decoded.slice(preSkip / 3, preSkip / 3 + tone.length), (sample) => sample / 32768);
    expect(played).toHaveLength(tone.length);
    expect(dominantFrequency(played, rate)).toBeCloseTo(440, -1);
  });
});
