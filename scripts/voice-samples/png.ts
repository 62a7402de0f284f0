import { deflateSync } from 'node:zlib';

/** A picture of at most 256 colours: one palette index a pixel, rows top to bottom. */
export interface IndexedImage {
  width: number;
  height: number;
  /** Red, green and blue of each colour in turn. */
  palette: Uint8Array;
  pixels: Uint8Array;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 of ISO 3309 that PNG puts after each chunk. */
function pngCrc(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(typed.length + 8);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(pngCrc(typed), typed.length + 4);
  return out;
}

/** Encodes an indexed image as an 8-bit palette PNG file: one IDAT of deflated, unfiltered rows. */
export function encodePng({ width, height, palette, pixels }: IndexedImage): Buffer {
  const colours = palette.length / 3;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RangeError(`a PNG needs a positive whole size, not ${width}×${height}`);
  if (!Number.isInteger(colours) || colours < 1 || colours > 256) throw new RangeError(`a palette holds 1 to 256 RGB colours, not ${palette.length} bytes`);
  if (pixels.length !== width * height) throw new RangeError(`${width}×${height} needs ${width * height} pixels, not ${pixels.length}`);
  const beyond = pixels.findIndex((index) => index >= colours);
  if (beyond >= 0) throw new RangeError(`pixel ${beyond} is colour ${pixels[beyond]}, beyond the palette's ${colours}`);
  const rows = Buffer.alloc((width + 1) * height);
  // Filter type 0 on every row: the better filters of PNG gain nothing on a few flat-coloured levels.
  for (let y = 0; y < height; y += 1) rows.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 3;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
