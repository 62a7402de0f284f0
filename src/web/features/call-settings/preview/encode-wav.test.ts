import { describe, expect, it } from 'vitest';
import { encodeMonoWav } from './encode-wav';

describe('encodeMonoWav', () => {
  it('writes a mono 16-bit PCM WAV header and the samples, clamped, little-endian', async () => {
    const blob = encodeMonoWav(new Float32Array([0, 0.5, -0.5, 1, -1, 2, -2]), 16_000);
    expect(blob.type).toBe('audio/wav');
    const bytes = new DataView(await blob.arrayBuffer());
    const text = (offset: number) => String.fromCharCode(...new Uint8Array(bytes.buffer, offset, 4));
    expect(bytes.byteLength).toBe(44 + 7 * 2);
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(bytes.getUint32(4, true)).toBe(36 + 14);
    expect(bytes.getUint16(20, true)).toBe(1);
    expect(bytes.getUint16(22, true)).toBe(1);
    expect(bytes.getUint32(24, true)).toBe(16_000);
    expect(bytes.getUint32(28, true)).toBe(32_000);
    expect(bytes.getUint16(34, true)).toBe(16);
    expect(bytes.getUint32(40, true)).toBe(14);
    const samples = Array.from({ length: 7 }, (_, i) => bytes.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 16384, -16383, 32767, -32767, 32767, -32767]);
  });
});
