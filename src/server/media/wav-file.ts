import fs from 'node:fs';

/** Reads a mono 16-bit PCM WAV file: its samples and rate. Anything else is refused by name. */
export function readMonoPcmWav(file: string): { samples: Int16Array; sampleRate: number } {
  const bytes = fs.readFileSync(file);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${file} is not a WAV file`);
  let format: { channels: number; sampleRate: number; bits: number; encoding: number } | null = null;
  // Chunks follow the 12-byte header; tools add others (LIST, fact) before the data.
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = { encoding: bytes.readUInt16LE(body), channels: bytes.readUInt16LE(body + 2), sampleRate: bytes.readUInt32LE(body + 4), bits: bytes.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!format || format.encoding !== 1 || format.channels !== 1 || format.bits !== 16) throw new Error(`${file} is not mono 16-bit PCM`);
      const length = Math.min(size, bytes.length - body) >> 1;
      const samples = new Int16Array(length);
      for (let i = 0; i < length; i += 1) samples[i] = bytes.readInt16LE(body + i * 2);
      return { samples, sampleRate: format.sampleRate };
    }
    offset = body + size + (size & 1);
  }
  throw new Error(`${file} has no audio data`);
}
