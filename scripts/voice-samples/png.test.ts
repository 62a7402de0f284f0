import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng } from './png';

/** The chunks of a PNG file, each checked against its own CRC by zlib's independent implementation. */
function chunks(file: Buffer) {
  const found: { type: string; data: Buffer }[] = [];
  for (let offset = 8; offset < file.length; ) {
    const length = file.readUInt32BE(offset);
    const typed = file.subarray(offset + 4, offset + 8 + length);
    expect(file.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
    found.push({ type: typed.toString('ascii', 0, 4), data: typed.subarray(4) });
    offset += 12 + length;
  }
  return found;
}

describe('encodePng', () => {
  const palette = Uint8Array.from([0, 0, 0, 255, 0, 0, 255, 255, 255]);

  it('writes the signature, a palette and the rows, each after a filter byte', () => {
    const file = encodePng({ width: 3, height: 2, palette, pixels: Uint8Array.from([0, 1, 2, 2, 1, 0]) });
    expect([...file.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [header, plte, idat, end, ...rest] = chunks(file);
    expect(rest).toEqual([]);
    expect(header?.type).toBe('IHDR');
    expect([...header!.data]).toEqual([0, 0, 0, 3, 0, 0, 0, 2, 8, 3, 0, 0, 0]);
    expect(plte?.type).toBe('PLTE');
    expect([...plte!.data]).toEqual([...palette]);
    expect(idat?.type).toBe('IDAT');
    expect([...inflateSync(idat!.data)]).toEqual([0, 0, 1, 2, 0, 2, 1, 0]);
    expect(end).toEqual({ type: 'IEND', data: Buffer.alloc(0) });
  });

  it('refuses pixels that do not fill the size or name a colour beyond the palette', () => {
    expect(() => encodePng({ width: 2, height: 2, palette, pixels: new Uint8Array(3) })).toThrow('2×2 needs 4 pixels, not 3');
    expect(() => encodePng({ width: 2, height: 1, palette, pixels: Uint8Array.from([0, 3]) })).toThrow("pixel 1 is colour 3, beyond the palette's 3");
    expect(() => encodePng({ width: 0, height: 1, palette, pixels: new Uint8Array(0) })).toThrow('a PNG needs a positive whole size, not 0×1');
  });
});
