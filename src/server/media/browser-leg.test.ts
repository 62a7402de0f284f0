import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { CallSampleRate } from '../../common/calls';
import type { SocketCodec } from '../../common/media';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../tests/support/dsp/tone-frames';
import { BrowserLeg } from './browser-leg';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus/opus-codec';

/** The parts of a ws socket the leg uses, with a send buffer the test fills and empties. */
class StubSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly CONNECTING = 0;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Buffer[] = [];

  send(data: Buffer) {
    this.sent.push(data);
  }

  close() {
    this.readyState = 3;
    this.emit('close');
  }
}

function legOn(codec: SocketCodec, callRate: CallSampleRate) {
  const socket = new StubSocket();
  const leg = new BrowserLeg(socket as unknown as WebSocket, codec, callRate);
  const frames: Int16Array[] = [];
  leg.onFrame((frame) => frames.push(frame.slice()));
  return { socket, leg, frames };
}

/** The kbit/s of the packets the leg sends for `count` frames of a tone. */
function sendTone(leg: BrowserLeg, socket: StubSocket, count: number) {
  const from = socket.sent.length;
  for (const frame of toneFrames(440, 16_000, count)) leg.send(frame);
  const packets = socket.sent.slice(from);
  return (packets.reduce((n, packet) => n + packet.length, 0) * 8) / (packets.length * 20);
}

describe('BrowserLeg', () => {
  it('carries PCM frames at the call’s rate, dropping and counting other sizes and text', () => {
    const { socket, leg, frames } = legOn('pcm', 8_000);
    expect(leg).toMatchObject({ sampleRate: 8_000, transport: 'websocket-pcm' });
    socket.emit('message', Buffer.alloc(320, 1), true);
    socket.emit('message', Buffer.alloc(640), true);
    socket.emit('message', Buffer.from('hello'), false);
    expect(frames).toHaveLength(1);
    expect(leg.droppedFrames).toBe(2);
    leg.send(new Int16Array(160));
    expect(socket.sent.map((message) => message.length)).toEqual([320]);
  });

  it('carries Opus at 16 kHz whatever the call’s rate; a 2000-byte message and garbage are dropped, counted, and the call goes on', () => {
    const { socket, leg, frames } = legOn('opus', 8_000);
    expect(leg).toMatchObject({ sampleRate: 16_000, transport: 'websocket-opus' });
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    const tone = toneFrames(440, 16_000, 50);
    tone.slice(0, 25).forEach((frame) => socket.emit('message', Buffer.from(encoder.encode(frame)), true));
    socket.emit('message', Buffer.alloc(2000, 0x78), true);
    socket.emit('message', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]), true);
    tone.slice(25).forEach((frame) => socket.emit('message', Buffer.from(encoder.encode(frame)), true));
    expect(leg.droppedFrames).toBe(2);
    expect(leg.isClosed).toBe(false);
    expect(frames).toHaveLength(50);
    expect(dominantFrequency(joinFrames(frames.slice(5)), 16_000)).toBeCloseTo(440, 0);

    sendTone(leg, socket, 50);
    const decoder = new OpusFrameDecoder(16_000);
    const heard = socket.sent.map((packet) => decoder.decode(packet)!.slice());
    expect(dominantFrequency(joinFrames(heard.slice(5)), 16_000)).toBeCloseTo(440, 0);
  });

  it('steps its Opus bitrate down while the socket’s send buffer grows, and back up once it has stayed empty', () => {
    const { socket, leg } = legOn('opus', 16_000);
    expect(sendTone(leg, socket, 50)).toBeGreaterThan(28);
    socket.bufferedAmount = 10_000;
    sendTone(leg, socket, 50);
    expect(sendTone(leg, socket, 50)).toBeLessThanOrEqual(14);
    socket.bufferedAmount = 0;
    // About 3 s empty for each step back up: 12 → 16 → 21 → 28 → 32 kbit/s.
    sendTone(leg, socket, 600);
    expect(sendTone(leg, socket, 50)).toBeGreaterThan(28);
  });

  it('ends when the browser goes away, and sends nothing after', () => {
    const { socket, leg } = legOn('opus', 16_000);
    const reasons: string[] = [];
    leg.onClose((reason) => reasons.push(reason));
    socket.close();
    expect(reasons).toEqual(['The browser disconnected']);
    leg.send(new Int16Array(320));
    expect(socket.sent).toHaveLength(0);
  });
});
