import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPUS_BITRATE, OPUS_MIN_BITRATE } from '../../common/media';
import { fakeMediaPlatform, fakeMicrophone } from '../../../tests/support/fake-call-media';
import { SIGNED_OUT_CLOSE_CODE } from '../lib/realtime';
import { SocketMedia, type SocketMediaOptions } from './socket-media';

async function connect(options: Partial<SocketMediaOptions> = {}) {
  const fake = fakeMediaPlatform();
  const microphone = fakeMicrophone();
  const onDrop = vi.fn();
  const media = await SocketMedia.connect({ mediaPath: '/api/v1/calls/c1/media', stream: microphone.stream, sampleRate: 16_000, codec: 'opus', bitrate: OPUS_BITRATE, onDrop, ...options }, fake.platform);
  const socket = fake.sockets[0]!;
  /** The capture worklet posts `count` 20 ms frames of the microphone. */
  const speak = (count = 1) => {
    for (let i = 0; i < count; i += 1) fake.events().onFrame(new Int16Array(320).fill(1_000).buffer);
  };
  const encoder = () => fake.codecs.encoders.at(-1)!;
  const bitrates = () => fake.codecs.encoders.flatMap((each) => each.configs.map((config) => config.bitrate));
  return { ...fake, media, socket, onDrop, microphone, speak, encoder, bitrates };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('SocketMedia with Opus', () => {
  it('opens the call’s media socket with codec=opus and the worklets at 16 kHz', async () => {
    const { socket, platform, microphone, media } = await connect({ sampleRate: 8_000 });
    expect(socket.path).toBe('/api/v1/calls/c1/media?codec=opus');
    expect(socket.binaryType).toBe('arraybuffer');
    expect(platform.startAudio).toHaveBeenCalledWith(microphone.stream, 16_000, expect.anything());
    expect(media.transport).toBe('websocket-opus');
  });

  it('sends each 20 ms frame as one Opus packet in its own binary message', async () => {
    const { socket, speak, encoder } = await connect();
    speak(3);
    expect(encoder().frames.map(({ format, sampleRate, numberOfFrames, timestamp }) => ({ format, sampleRate, numberOfFrames, timestamp }))).toEqual([
      { format: 's16', sampleRate: 16_000, numberOfFrames: 320, timestamp: 0 },
      { format: 's16', sampleRate: 16_000, numberOfFrames: 320, timestamp: 20_000 },
      { format: 's16', sampleRate: 16_000, numberOfFrames: 320, timestamp: 40_000 },
    ]);
    expect(encoder().frames.every((frame) => frame.closed)).toBe(true);
    expect(socket.sent.map((message) => [message.byteLength, message[0]])).toEqual([
      [80, 1],
      [80, 2],
      [80, 3],
    ]);
  });

  it('plays each packet received, decoded to a 20 ms frame at 16 kHz', async () => {
    const { socket, audio, codecs } = await connect();
    socket.deliver(new Uint8Array([50, 7, 7]).buffer);
    expect(codecs.decoders[0]!.chunks.map((chunk) => chunk.timestamp)).toEqual([0]);
    const [frame] = audio.play.mock.calls.at(-1)! as [ArrayBuffer];
    expect(new Int16Array(frame)).toEqual(new Int16Array(320).fill(Math.round(0.5 * 32767)));
  });

  it('steps its bitrate down while the send buffer holds over 100 ms of audio, never below 12 kbit/s, and back up once it drains', async () => {
    const { socket, speak, bitrates } = await connect();
    // 100 ms at 32 kbit/s is 400 bytes.
    socket.bufferedAmount = 400;
    speak(30);
    expect(bitrates()).toEqual([32_000]);
    socket.bufferedAmount = 401;
    speak(1);
    expect(bitrates()).toEqual([32_000, 24_000]);
    // A step needs half a second to show before the next.
    speak(24);
    expect(bitrates()).toEqual([32_000, 24_000]);
    speak(1);
    expect(bitrates()).toEqual([32_000, 24_000, 18_000]);
    speak(25 * 4);
    expect(bitrates()).toEqual([32_000, 24_000, 18_000, 13_500, OPUS_MIN_BITRATE]);

    socket.bufferedAmount = 0;
    speak(149);
    expect(bitrates().at(-1)).toBe(OPUS_MIN_BITRATE);
    speak(1);
    expect(bitrates().at(-1)).toBe(16_000);
    speak(150 * 4);
    expect(bitrates().slice(5)).toEqual([16_000, 21_333, 28_444, OPUS_BITRATE]);
    expect(socket.sent.at(-1)!.byteLength).toBe(80);
  });

  it('holds the bitrate it was given as its ceiling (Low Data Mode)', async () => {
    const { socket, speak, bitrates } = await connect({ bitrate: 16_000 });
    socket.bufferedAmount = 0;
    speak(600);
    expect(bitrates()).toEqual([16_000]);
  });

  it('closes its codecs with the socket and the audio, without a drop', async () => {
    const { media, socket, audio, codecs, onDrop } = await connect();
    media.close();
    expect(socket.closed).toBe(true);
    expect(audio.stop).toHaveBeenCalled();
    expect(codecs.encoders[0]!.state).toBe('closed');
    expect(codecs.decoders[0]!.state).toBe('closed');
    expect(onDrop).not.toHaveBeenCalled();
  });
});

describe('SocketMedia with PCM', () => {
  it('sends and plays frames at the call’s rate as they are', async () => {
    const { socket, speak, audio, platform, microphone, media, codecs } = await connect({ codec: 'pcm', sampleRate: 8_000 });
    expect(socket.path).toBe('/api/v1/calls/c1/media?codec=pcm');
    expect(media.transport).toBe('websocket-pcm');
    expect(platform.startAudio).toHaveBeenCalledWith(microphone.stream, 8_000, expect.anything());
    expect(codecs.encoders).toEqual([]);
    speak();
    expect(socket.sent.map((message) => message.byteLength)).toEqual([640]);
    const received = new Int16Array(160).fill(3).buffer;
    socket.deliver(received);
    expect(audio.play).toHaveBeenCalledWith(received);
  });
});

describe('SocketMedia, either codec', () => {
  it('reports the server closing its socket as a drop, saying when the session ended', async () => {
    const first = await connect();
    first.socket.closedByServer(1006);
    expect(first.onDrop).toHaveBeenCalledWith(false);
    const second = await connect({ codec: 'pcm' });
    second.socket.closedByServer(SIGNED_OUT_CLOSE_CODE);
    expect(second.onDrop).toHaveBeenCalledWith(true);
  });

  it('fails, its audio stopped, when the socket closes while the audio starts', async () => {
    const fake = fakeMediaPlatform();
    fake.platform.startAudio.mockImplementationOnce(async () => {
      fake.sockets[0]!.closedByServer(4404);
      return fake.audio;
    });
    const connecting = SocketMedia.connect({ mediaPath: '/api/v1/calls/c1/media', stream: fakeMicrophone().stream, sampleRate: 16_000, codec: 'opus', bitrate: OPUS_BITRATE, onDrop: vi.fn() }, fake.platform);
    await expect(connecting).rejects.toThrow('The call was cut off');
    expect(fake.audio.stop).toHaveBeenCalled();
    expect(fake.codecs.encoders[0]!.state).toBe('closed');
  });

  it('mutes through the capture worklet', async () => {
    const { media, audio } = await connect();
    media.setMuted(true);
    expect(audio.setMuted).toHaveBeenCalledWith(true);
  });

  it('counts what it carries for its stats: bits and packets each way, the share the jitter buffer concealed, the microphone’s peak', async () => {
    const { media, socket, speak, events } = await connect();
    speak(50);
    for (let i = 0; i < 25; i += 1) socket.deliver(new Uint8Array(60).fill(1).buffer);
    events().onJitter!({ targetFrames: 3, queuedFrames: 3, played: 45, concealed: 5, dropped: 0 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await media.stats()).toEqual({
      transport: 'websocket-opus',
      codec: 'Opus',
      packetsReceived: 25,
      packetsLost: 0,
      lossShare: 0,
      micLevel: 1_000 / 32_768,
      bitrateOut: 32_000,
      bitrateIn: 12_000,
      concealedShare: 0.1,
    });

    await vi.advanceTimersByTimeAsync(1_000);
    expect(await media.stats()).toMatchObject({ packetsReceived: 25, micLevel: 0, bitrateOut: 0, bitrateIn: 0, concealedShare: undefined });
  });
});
