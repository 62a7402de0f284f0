import { describe, expect, it } from 'vitest';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus-codec';

function tone(frequency: number, sampleRate: 16_000 | 8_000, frames: number): Int16Array[] {
  const samples = (sampleRate / 1000) * 20;
  return Array.from({ length: frames }, (_, f) => Int16Array.from({ length: samples }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * frequency * (f * samples + i)) / sampleRate))));
}

function rms(frame: Int16Array) {
  return Math.sqrt(frame.reduce((sum, s) => sum + s * s, 0) / frame.length);
}

describe('Opus frames', () => {
  it('carries a 16 kHz frame in well under the bitrate asked for and back at the same loudness', () => {
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    const decoder = new OpusFrameDecoder(16_000);
    let bytes = 0;
    let decoded: Int16Array | null = null;
    for (const frame of tone(440, 16_000, 50)) {
      const packet = encoder.encode(frame);
      bytes += packet.byteLength;
      decoded = decoder.decode(packet);
    }
    expect((bytes * 8) / 1000).toBeLessThanOrEqual(34); // one second of audio, in kbit
    expect(decoded).toHaveLength(320);
    expect(rms(decoded!)).toBeGreaterThan(0.7 * rms(tone(440, 16_000, 1)[0]!));
  });

  it('follows a lower bitrate when told', () => {
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    encoder.bitrate = 12_000;
    let bytes = 0;
    for (const frame of tone(440, 16_000, 50)) bytes += encoder.encode(frame).byteLength;
    expect((bytes * 8) / 1000).toBeLessThanOrEqual(15); // VBR lets one second run a little over
  });

  it('decodes a 16 kHz packet at 8 kHz for a Low Data Mode leg', () => {
    const packet = new OpusFrameEncoder(16_000, 32_000).encode(tone(440, 16_000, 1)[0]!);
    expect(new OpusFrameDecoder(8_000).decode(packet)).toHaveLength(160);
  });

  it('answers null for bytes that are not Opus and goes on decoding', () => {
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    const decoder = new OpusFrameDecoder(16_000);
    expect(decoder.decode(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x01]))).toBeNull();
    expect(decoder.decode(encoder.encode(tone(440, 16_000, 1)[0]!))).toHaveLength(320);
  });

  it('refuses a frame of the wrong length', () => {
    expect(() => new OpusFrameEncoder(16_000, 32_000).encode(new Int16Array(100))).toThrow(/320 samples/);
  });
});
