import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { MAX_OPUS_PACKET_BYTES } from '../../common/media';
import { fakeWebCodecs } from '../../../tests/support/fake-call-media';
import { canCarryOpus, OpusSocketCodec } from './opus-socket-codec';

function setUp(options: Parameters<typeof fakeWebCodecs>[0] = {}) {
  const fake = fakeWebCodecs(options);
  const packets: Uint8Array[] = [];
  const frames: Int16Array[] = [];
  const codec = new OpusSocketCodec(fake.codecs, 32_000, { onPacket: (packet) => packets.push(packet), onFrame: (frame) => frames.push(new Int16Array(frame)) });
  return { ...fake, codec, packets, frames };
}

let warnings: MockInstance<typeof console.warn>;
beforeEach(() => (warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})));
afterEach(() => warnings.mockRestore());

describe('canCarryOpus', () => {
  it('asks for mono Opus at 16 kHz both ways', async () => {
    const { codecs } = fakeWebCodecs();
    expect(await canCarryOpus(codecs)).toBe(true);
    expect(codecs.AudioEncoder.isConfigSupported).toHaveBeenCalledWith({ codec: 'opus', sampleRate: 16_000, numberOfChannels: 1 });
    expect(codecs.AudioDecoder.isConfigSupported).toHaveBeenCalledWith({ codec: 'opus', sampleRate: 16_000, numberOfChannels: 1 });
  });

  it('is false without WebCodecs, without Opus, or when the browser will not say', async () => {
    expect(await canCarryOpus(undefined)).toBe(false);
    expect(await canCarryOpus(fakeWebCodecs({ supported: false }).codecs)).toBe(false);
    const { codecs } = fakeWebCodecs();
    vi.mocked(codecs.AudioDecoder.isConfigSupported).mockRejectedValueOnce(new TypeError('Unknown codec'));
    expect(await canCarryOpus(codecs)).toBe(false);
  });
});

describe('OpusSocketCodec', () => {
  it('encodes with 20 ms Opus frames at the bitrate given, and reconfigures when it changes', async () => {
    const { codec, encoders } = setUp();
    expect(encoders[0]!.configs).toEqual([{ codec: 'opus', sampleRate: 16_000, numberOfChannels: 1, bitrate: 32_000, opus: { frameDuration: 20_000 } }]);
    codec.bitrate = 24_000;
    expect(codec.bitrate).toBe(24_000);
    expect(encoders[0]!.configs.at(-1)).toMatchObject({ bitrate: 24_000 });
  });

  it('hands on each packet whole, as its own bytes', () => {
    const { codec, packets } = setUp();
    codec.encode(new Int16Array(320).buffer);
    codec.encode(new Int16Array(320).buffer);
    expect(packets.map((packet) => [packet.byteLength, packet[0]])).toEqual([
      [80, 1],
      [80, 2],
    ]);
  });

  it('cuts what the decoder gives at another rate into 20 ms frames at 16 kHz', () => {
    const { codec, frames } = setUp({ decodedRate: 48_000 });
    for (let i = 0; i < 10; i += 1) codec.decode(new Uint8Array([40]).buffer);
    // 200 ms in; the resampler's filter holds back a few samples, so the tenth frame is not whole yet.
    expect(frames).toHaveLength(9);
    expect(frames.every((frame) => frame.length === 320)).toBe(true);
    const steady = frames.at(-1)!;
    expect(Math.abs(steady[160]! - Math.round(0.4 * 32767))).toBeLessThan(20);
  });

  it('drops what cannot be an Opus packet before the decoder sees it', () => {
    const { codec, decoders, frames } = setUp();
    codec.decode(new ArrayBuffer(0));
    codec.decode(new ArrayBuffer(MAX_OPUS_PACKET_BYTES + 1));
    expect(decoders[0]!.chunks).toEqual([]);
    codec.decode(new Uint8Array(MAX_OPUS_PACKET_BYTES).fill(10).buffer);
    expect(frames).toHaveLength(1);
  });

  it('starts a new decoder when one fails on a bad packet, and goes on', () => {
    const { codec, decoders, frames } = setUp();
    decoders[0]!.fail();
    codec.decode(new Uint8Array([20]).buffer);
    expect(decoders).toHaveLength(2);
    expect(frames).toHaveLength(1);
    expect(warnings).toHaveBeenCalledOnce();
  });

  it('starts a new encoder at the bitrate of the moment when one fails', () => {
    const { codec, encoders, packets } = setUp();
    codec.bitrate = 18_000;
    encoders[0]!.fail();
    codec.encode(new Int16Array(320).buffer);
    expect(encoders).toHaveLength(2);
    expect(encoders[1]!.configs).toEqual([expect.objectContaining({ bitrate: 18_000 })]);
    expect(packets).toHaveLength(1);
  });

  it('once closed, neither encodes nor decodes nor starts new codecs', () => {
    const { codec, encoders, decoders, packets, frames } = setUp();
    codec.close();
    decoders[0]!.fail();
    codec.encode(new Int16Array(320).buffer);
    codec.decode(new Uint8Array([20]).buffer);
    expect([encoders.length, decoders.length, packets.length, frames.length]).toEqual([1, 1, 0, 0]);
  });
});
