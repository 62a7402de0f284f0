import { describe, expect, it } from 'vitest';
import { MAX_OPUS_PACKET_BYTES, OPUS_BITRATE, OPUS_LOW_DATA_BITRATE } from '../../common/media';
import { dominantFrequency, rms } from '../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../tests/support/dsp/tone-frames';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus/opus-codec';
import { socketFraming, type SocketFraming } from './socket-codec';

/** Writes `frames` through the framing; answers the messages it sent. */
function written(framing: SocketFraming, frames: Int16Array[]): Buffer[] {
  const messages: Buffer[] = [];
  for (const frame of frames) framing.write(frame, (message) => messages.push(message));
  return messages;
}

/** Reads `messages` as the browser's; answers copies of the frames they carried. */
function read(framing: SocketFraming, messages: Uint8Array[]): Int16Array[] {
  return messages.flatMap((message) => {
    const frame = framing.read(Buffer.from(message), true);
    return frame ? [frame.slice()] : [];
  });
}

function opusPackets(frequency: number, count: number, bitrate = OPUS_BITRATE): Buffer[] {
  const encoder = new OpusFrameEncoder(16_000, bitrate);
  return toneFrames(frequency, 16_000, count).map((frame) => Buffer.from(encoder.encode(frame)));
}

function kbitPerSecond(packets: Buffer[]) {
  return (packets.reduce((n, packet) => n + packet.length, 0) * 8) / (packets.length * 20);
}

const idle = { bufferedAmount: 0 };

describe('PCM media sockets', () => {
  it('take one frame of the call’s rate per message, dropping and counting anything else', () => {
    const framing = socketFraming('pcm', 16_000, idle);
    expect(framing).toMatchObject({ transport: 'websocket-pcm', sampleRate: 16_000 });
    const frame = Buffer.alloc(640);
    frame.writeInt16LE(1234, 0);
    expect(framing.read(frame, true)?.[0]).toBe(1234);
    expect(framing.read(Buffer.alloc(320), true)).toBeNull();
    expect(framing.read(Buffer.alloc(640), false)).toBeNull();
    expect(framing.dropped).toBe(2);
  });

  it('send each frame as a message of its own, which later frames do not overwrite', () => {
    const framing = socketFraming('pcm', 8_000, idle);
    expect(framing.sampleRate).toBe(8_000);
    const frame = new Int16Array(160).fill(7);
    const [message] = written(framing, [frame]);
    frame.fill(9);
    expect(message).toHaveLength(320);
    expect(message!.readInt16LE(0)).toBe(7);
  });
});

describe('Opus media sockets', () => {
  it('decode the browser’s packets to 16 kHz frames and encode the call’s frames at 32 kbit/s', () => {
    const framing = socketFraming('opus', 16_000, idle);
    expect(framing).toMatchObject({ transport: 'websocket-opus', sampleRate: 16_000 });
    const heard = read(framing, opusPackets(440, 50));
    expect(heard).toHaveLength(50);
    expect(heard.every((frame) => frame.length === 320)).toBe(true);
    expect(dominantFrequency(joinFrames(heard.slice(5)), 16_000)).toBeCloseTo(440, 0);

    const packets = written(framing, toneFrames(660, 16_000, 50));
    expect(packets).toHaveLength(50);
    expect(Math.max(...packets.map((packet) => packet.length))).toBeLessThanOrEqual(MAX_OPUS_PACKET_BYTES);
    // VBR lets one second run a little over.
    expect(kbitPerSecond(packets)).toBeLessThanOrEqual((OPUS_BITRATE / 1000) * 1.1);
    const decoder = new OpusFrameDecoder(16_000);
    const decoded = packets.map((packet) => decoder.decode(packet)!.slice());
    expect(dominantFrequency(joinFrames(decoded.slice(5)), 16_000)).toBeCloseTo(660, 0);
  });

  it('drop and count an oversized message, garbage and text, and go on decoding', () => {
    const framing = socketFraming('opus', 16_000, idle);
    const [first, second] = opusPackets(440, 2);
    expect(framing.read(first, true)).toHaveLength(320);
    expect(framing.read(Buffer.alloc(2000, 0x78), true)).toBeNull();
    expect(framing.read(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]), true)).toBeNull();
    expect(framing.read(Buffer.alloc(0), true)).toBeNull();
    expect(framing.read(Buffer.from('hello'), false)).toBeNull();
    expect(framing.dropped).toBe(4);
    expect(framing.read(second, true)).toHaveLength(320);
  });

  it('run at 16 kHz in Low Data Mode too, with the bitrate capped instead', () => {
    const framing = socketFraming('opus', 8_000, idle);
    expect(framing.sampleRate).toBe(16_000);
    const packets = written(framing, toneFrames(440, 16_000, 100));
    expect(kbitPerSecond(packets)).toBeLessThanOrEqual((OPUS_LOW_DATA_BITRATE / 1000) * 1.1);
  });

  it('give a relayed Low Data Mode call its 8 kHz frames, and send them on as 16 kHz packets', () => {
    const framing = socketFraming('opus', 8_000, idle, 8_000);
    expect(framing.sampleRate).toBe(8_000);
    const heard = read(framing, opusPackets(440, 50));
    expect(heard.every((frame) => frame.length === 160)).toBe(true);
    expect(dominantFrequency(joinFrames(heard.slice(5)), 8_000)).toBeCloseTo(440, 0);

    const packets = written(framing, toneFrames(440, 8_000, 50));
    expect(packets.length).toBeGreaterThanOrEqual(49);
    const decoder = new OpusFrameDecoder(16_000);
    const decoded = packets.map((packet) => decoder.decode(packet)!.slice());
    expect(decoded.every((frame) => frame.length === 320)).toBe(true);
    const audio = joinFrames(decoded.slice(5));
    expect(dominantFrequency(audio, 16_000)).toBeCloseTo(440, 0);
    expect(rms(audio)).toBeGreaterThan(0.25);
  });
});
