import { describe, expect, it } from 'vitest';
import { OpusFrameEncoder } from './opus-codec';
import { opusPacketMs } from './opus-packet';

/** A packet of `config` and `code` (RFC 6716 §3.1), with `rest` after the TOC byte. */
const packet = (config: number, code: number, ...rest: number[]) => Uint8Array.from([(config << 3) | code, ...rest]);

describe('opusPacketMs', () => {
  it('reads the frame length of each mode and bandwidth from the TOC byte', () => {
    expect([0, 1, 2, 3, 9].map((config) => opusPacketMs(packet(config, 0)))).toEqual([10, 20, 40, 60, 20]);
    expect([12, 13, 15].map((config) => opusPacketMs(packet(config, 0)))).toEqual([10, 20, 20]);
    expect([16, 17, 18, 19, 31].map((config) => opusPacketMs(packet(config, 0)))).toEqual([2.5, 5, 10, 20, 20]);
  });

  it('counts two frames for codes 1 and 2, and code 3’s own count', () => {
    expect(opusPacketMs(packet(1, 1))).toBe(40);
    expect(opusPacketMs(packet(18, 2))).toBe(20);
    expect(opusPacketMs(packet(18, 3, 0b0000_0010))).toBe(20);
    expect(opusPacketMs(packet(3, 3, 0b1000_0011))).toBe(180);
  });

  it('cannot say for an empty packet, a code 3 packet without its count, or a count of none', () => {
    expect(opusPacketMs(new Uint8Array(0))).toBeNull();
    expect(opusPacketMs(packet(1, 3))).toBeNull();
    expect(opusPacketMs(packet(1, 3, 0))).toBeNull();
  });

  it('reads 20 ms in what the server’s own encoder makes', () => {
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    expect(opusPacketMs(encoder.encode(new Int16Array(320)))).toBe(20);
  });
});
