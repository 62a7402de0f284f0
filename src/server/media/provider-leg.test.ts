import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ProviderLeg } from './provider-leg';

/** The parts of a ws socket the leg uses. */
class StubSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly CONNECTING = 0;
  readyState = 1;
  readonly sent: Buffer[] = [];
  closedWith: number | null = null;

  send(data: Buffer) {
    this.sent.push(data);
  }

  close(code: number) {
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close', code);
  }
}

function legOn() {
  const socket = new StubSocket();
  const leg = new ProviderLeg(socket as unknown as WebSocket);
  const frames: Int16Array[] = [];
  const closes: string[] = [];
  leg.onFrame((frame) => frames.push(frame));
  leg.onClose((reason) => closes.push(reason));
  return { socket, leg, frames, closes };
}

describe('ProviderLeg', () => {
  it('reads the connected message, passes 640-byte frames on, drops other sizes, and hands on the keys pressed', () => {
    const { socket, leg, frames } = legOn();
    const digits: string[] = [];
    leg.onDigit((digit) => digits.push(digit));
    socket.emit('message', Buffer.from(JSON.stringify({ event: 'websocket:connected', 'content-type': 'audio/l16;rate=16000', callId: 'c1' })), false);
    const frame = Buffer.alloc(640);
    frame.writeInt16LE(1234, 0);
    socket.emit('message', frame, true);
    socket.emit('message', Buffer.alloc(320), true);
    socket.emit('message', Buffer.from('{"event":"websocket:dtmf","digit":"5","duration":260}'), false);
    socket.emit('message', Buffer.from('{"event":"websocket:dtmf","digit":"A","duration":260}'), false);
    socket.emit('message', Buffer.from('not json'), false);
    expect(digits).toEqual(['5']);
    expect(frames).toHaveLength(1);
    expect(frames[0]![0]).toBe(1234);
    expect(leg.droppedFrames).toBe(1);
    expect(leg.isClosed).toBe(false);

    leg.send(new Int16Array(320).fill(7));
    expect(socket.sent).toHaveLength(1);
    expect(socket.sent[0]!.length).toBe(640);
  });

  it('refuses audio at another rate than 16 kHz', () => {
    const { socket, leg, closes } = legOn();
    socket.emit('message', Buffer.from(JSON.stringify({ event: 'websocket:connected', 'content-type': 'audio/l16;rate=8000' })), false);
    expect(leg.isClosed).toBe(true);
    expect(leg.dropped).toBe(true);
    expect(closes).toEqual(['The phone network sent audio at 8000 Hz instead of 16000 Hz']);
    expect(socket.closedWith).toBe(1000);
  });

  it('tells a hang-up (normal close) from a dropped connection', () => {
    const normal = legOn();
    normal.socket.emit('close', 1000);
    expect(normal.leg.dropped).toBe(false);
    expect(normal.closes).toHaveLength(1);

    const abnormal = legOn();
    abnormal.socket.emit('close', 1006);
    expect(abnormal.leg.dropped).toBe(true);
    abnormal.leg.send(new Int16Array(320));
    expect(abnormal.socket.sent).toEqual([]);
  });
});
