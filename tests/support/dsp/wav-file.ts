/** Reads the 16-bit mono PCM WAV files of tests/fixtures (the RIFF chunks sox writes). */

import { readFileSync } from 'node:fs';

export interface WavAudio {
  samples: Int16Array;
  sampleRate: number;
}

export function readWav(path: string): WavAudio {
  const bytes = readFileSync(path);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${path} is not a RIFF WAVE file`);
  let sampleRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      const format = bytes.readUInt16LE(body);
      const channels = bytes.readUInt16LE(body + 2);
      const bits = bytes.readUInt16LE(body + 14);
      // WAVE_FORMAT_EXTENSIBLE (0xfffe) is what sox writes for some headers; its sub-format is PCM here.
      if ((format !== 1 && format !== 0xfffe) || channels !== 1 || bits !== 16) {
        throw new Error(`${path} must be 16-bit mono PCM (format ${format}, ${channels} channels, ${bits} bits)`);
      }
      sampleRate = bytes.readUInt32LE(body + 4);
    } else if (id === 'data') {
      if (sampleRate === 0) throw new Error(`${path} has its data before its format`);
      const count = Math.floor(Math.min(size, bytes.length - body) / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i += 1) samples[i] = bytes.readInt16LE(body + 2 * i);
      return { samples, sampleRate };
    }
    at = body + size + (size % 2);
  }
  throw new Error(`${path} has no data chunk`);
}
