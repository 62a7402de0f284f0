import { describe, expect, it } from 'vitest';
import { dominantFrequency, rms } from '../../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../../tests/support/dsp/tone-frames';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus-codec';
import { OpusLossDecoder } from './opus-loss-decoder';

/** Packets of 440 Hz for 20 frames, then of 660 Hz, copied out of the server's encoder (in-band FEC on). */
function tonePackets(count: number) {
  const encoder = new OpusFrameEncoder(16_000, 32_000);
  const frames = [...toneFrames(440, 16_000, 20), ...toneFrames(660, 16_000, count - 20)];
  return frames.map((frame) => encoder.encode(frame).slice());
}

describe('OpusLossDecoder', () => {
  it('decodes 20 ms packets as the server’s other decoder does', () => {
    const packets = tonePackets(30);
    const lossy = new OpusLossDecoder(16_000);
    const plain = new OpusFrameDecoder(16_000);
    try {
      for (const packet of packets) expect(lossy.decode(packet)).toEqual(plain.decode(packet));
    } finally {
      lossy.close();
    }
  });

  it('rebuilds a lost packet from the in-band FEC of the next one: the new pitch, where concealment would go on with the old', () => {
    const packets = tonePackets(40);
    const recovering = new OpusLossDecoder(16_000);
    const concealing = new OpusLossDecoder(16_000);
    try {
      for (const packet of packets.slice(0, 25)) {
        recovering.decode(packet);
        concealing.decode(packet);
      }
      // Packet 25, well into the 660 Hz stretch, is lost.
      const recovered = joinFrames([recovering.recover(packets[26]!).slice()]);
      const concealed = joinFrames([concealing.conceal().slice()]);
      expect(dominantFrequency(recovered, 16_000)).toBeGreaterThan(600);
      expect(rms(recovered)).toBeGreaterThan(0.1);
      // The next packet still decodes after either.
      expect(rms(joinFrames([recovering.decode(packets[26]!)!.slice()]))).toBeGreaterThan(0.1);
      expect(concealed).toHaveLength(320);
    } finally {
      recovering.close();
      concealing.close();
    }
  });

  it('conceals a run of losses with a continuation that fades, never throwing', () => {
    const packets = tonePackets(30);
    const decoder = new OpusLossDecoder(16_000);
    try {
      for (const packet of packets.slice(0, 25)) decoder.decode(packet);
      const levels = Array.from({ length: 10 }, () => rms(joinFrames([decoder.conceal().slice()])));
      expect(levels[0]).toBeGreaterThan(0.1);
      expect(dominantFrequency(joinFrames([decoder.decode(packets[25]!)!.slice()]), 16_000)).toBeCloseTo(660, -1);
      expect(levels.at(-1)!).toBeLessThan(levels[0]!);
    } finally {
      decoder.close();
    }
  });

  it('takes only single 20 ms Opus packets of at most 1275 bytes', () => {
    const [packet] = tonePackets(21);
    expect(OpusLossDecoder.accepts(packet!)).toBe(true);
    expect(OpusLossDecoder.accepts(new Uint8Array(0))).toBe(false);
    expect(OpusLossDecoder.accepts(new Uint8Array(1276).fill(0x78))).toBe(false);
    // TOC 0x00 is SILK narrowband at 10 ms: half a frame.
    expect(OpusLossDecoder.accepts(Uint8Array.of(0x00, 1, 2, 3))).toBe(false);
  });

  it('answers null for a packet libopus cannot read, and refuses work once closed', () => {
    const decoder = new OpusLossDecoder(16_000);
    // Two 10 ms CELT frames of equal size (TOC 0xf1, code 1) cannot share an odd number of bytes.
    const uneven = Uint8Array.of(0xf1, 1, 2, 3);
    expect(OpusLossDecoder.accepts(uneven)).toBe(true);
    expect(decoder.decode(uneven)).toBeNull();
    decoder.close();
    decoder.close();
    expect(() => decoder.conceal()).toThrow('the decoder is closed');
  });
});
