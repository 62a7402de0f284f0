import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../tests/support/dsp/tone-frames';
import { until } from '../../../tests/support/until';
import { LocalBus } from '../bus/local-bus';
import { MediaMetrics } from '../metrics/media-meter';
import { BrowserRelay } from './browser-relay';
import { MediaExchange } from './media-exchange';
import { RemoteBrowserLeg } from './remote-browser-leg';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus/opus-codec';

/** The parts of a ws socket the relay uses. */
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
  }
}

/** A relay on one instance, and the exchange of the instance holding its call. */
async function relayed(media = new MediaMetrics()) {
  const bus = new LocalBus();
  const relayInstance = randomUUID();
  const holderInstance = randomUUID();
  const atRelay = new MediaExchange(bus, relayInstance);
  const atHolder = new MediaExchange(bus, holderInstance);
  await Promise.all([atRelay.start(), atHolder.start()]);
  const socket = new StubSocket();
  const relayId = randomUUID();
  const relay = new BrowserRelay(socket as unknown as WebSocket, atRelay, holderInstance, relayId, 'opus', media.stream('websocket-opus'));
  const onBus: Buffer[] = [];
  atHolder.listen(relayId, (frame) => onBus.push(Buffer.from(frame)));
  return { socket, relay, onBus, toRelay: atHolder.sender(relayInstance, relayId), atHolder, relayInstance, relayId };
}

describe('BrowserRelay', () => {
  it('decodes an Opus socket to PCM at the call’s rate for the holder, and encodes the holder’s frames back to Opus', async () => {
    const { socket, relay, onBus, toRelay } = await relayed();
    // A Low Data Mode call: 8 kHz on the bus, Opus at 16 kHz on the socket.
    relay.start(8_000);
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    for (const frame of toneFrames(440, 16_000, 50)) socket.emit('message', Buffer.from(encoder.encode(frame)), true);
    socket.emit('message', Buffer.alloc(2000, 0x78), true);
    socket.emit('message', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]), true);
    await until(() => onBus.length >= 50);
    expect(onBus.every((frame) => frame.length === 320)).toBe(true);
    const busFrames = onBus.map((frame) => new Int16Array(frame.buffer, frame.byteOffset, frame.length / 2));
    expect(dominantFrequency(joinFrames(busFrames.slice(5)), 8_000)).toBeCloseTo(440, 0);

    for (const frame of toneFrames(660, 8_000, 50)) toRelay(new Uint8Array(frame.buffer));
    await until(() => socket.sent.length >= 49);
    const decoder = new OpusFrameDecoder(16_000);
    const heard = socket.sent.map((packet) => decoder.decode(packet)!.slice());
    expect(dominantFrequency(joinFrames(heard.slice(5)), 16_000)).toBeCloseTo(660, 0);
    expect(onBus).toHaveLength(50);
  });

  it('counts the socket’s frames under its transport, and the call’s holder counts them as relay', async () => {
    const media = new MediaMetrics();
    const { socket, relay, atHolder, relayInstance, relayId } = await relayed(media);
    const leg = new RemoteBrowserLeg(atHolder, relayInstance, relayId, 16_000, 'websocket-opus', media.stream('relay'));
    relay.start(16_000);
    const encoder = new OpusFrameEncoder(16_000, 32_000);
    for (const frame of toneFrames(440, 16_000, 10)) socket.emit('message', Buffer.from(encoder.encode(frame)), true);
    for (const frame of toneFrames(660, 16_000, 4)) leg.send(frame);
    await until(() => socket.sent.length >= 4 && media.totals().get('relay')!.framesIn >= 10);
    expect(media.totals().get('websocket-opus')).toEqual({ framesIn: 10, framesOut: 4, concealed: 0 });
    expect(media.totals().get('relay')).toEqual({ framesIn: 10, framesOut: 4, concealed: 0 });
    leg.close('done');
  });
});
