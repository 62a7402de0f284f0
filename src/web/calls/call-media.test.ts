import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE, WEBRTC_CONNECT_TIMEOUT_MS } from '../../common/media';
import { fakeMediaPlatform, fakeMicrophone } from '../../../tests/support/fake-call-media';
import { FakeSignalling } from '../../../tests/support/fake-signalling';
import { CallMedia, type CallMediaOptions } from './call-media';

// Every wait here is on fake time, moved by hand; advancing by 0 lets the promises in between run.
const settle = () => vi.advanceTimersByTimeAsync(0);

function setUp(platformOptions: Parameters<typeof fakeMediaPlatform>[0] = {}, options: Partial<CallMediaOptions> = {}) {
  const media = fakeMediaPlatform(platformOptions);
  const signalling = new FakeSignalling();
  const microphone = fakeMicrophone();
  const onDrop = vi.fn();
  const connecting = CallMedia.connect({ callId: 'c1', mediaPath: '/api/v1/calls/c1/media', signalling, stream: microphone.stream, sampleRate: 16_000, onDrop, ...options }, media.platform);
  return { ...media, signalling, microphone, onDrop, connecting };
}

/** The peer's offer, once its candidates are gathered. */
async function offered(setup: ReturnType<typeof setUp>) {
  await settle();
  setup.peers[0]!.gathered();
  await settle();
  return setup.peers[0]!;
}

// Each fallback says why in a warning.
let warnings: MockInstance<typeof console.warn>;

beforeEach(() => {
  vi.useFakeTimers();
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  warnings.mockRestore();
});

describe('the call audio, when the server offers WebRTC', () => {
  it('offers the microphone over WebRTC, Opus first and capped at 32 kbit/s, and plays the far side once connected', async () => {
    const setup = setUp({ config: { webrtc: true, iceServers: [{ urls: ['stun:192.0.2.2:3478'] }] } });
    await settle();
    const peer = setup.peers[0]!;
    expect(peer.config.iceServers).toEqual([{ urls: ['stun:192.0.2.2:3478'] }]);
    const [transceiver] = peer.transceivers;
    expect(transceiver!.track).toBe(setup.microphone.track);
    expect(transceiver!.init).toMatchObject({ direction: 'sendrecv', sendEncodings: [{ maxBitrate: OPUS_BITRATE }] });
    expect(transceiver!.codecs!.map((codec) => codec.mimeType)).toEqual(['audio/opus', 'audio/red', 'audio/G722', 'audio/PCMU']);
    // No trickle: nothing goes out until the candidates are in the offer.
    expect(setup.signalling.sent).toEqual([]);

    await offered(setup);
    const [offer] = setup.signalling.sent;
    expect(offer).toMatchObject({ type: 'media.offer', callId: 'c1' });
    expect(offer?.type === 'media.offer' && offer.sdp).toContain('a=fmtp:111 minptime=10;stereo=0;sprop-stereo=0;useinbandfec=1;maxaveragebitrate=32000');

    setup.signalling.deliver({ type: 'media.answer', callId: 'c2', sdp: 'another call' });
    expect(peer.remoteDescription).toBeNull();
    setup.signalling.deliver({ type: 'media.answer', callId: 'c1', sdp: 'v=0 answer' });
    expect(peer.remoteDescription).toEqual({ type: 'answer', sdp: 'v=0 answer' });
    peer.becomes('connecting');
    peer.becomes('connected');
    // The browser's side alone is not enough: the server's must be up too.
    setup.signalling.deliver({ type: 'media.connected', callId: 'c2' });
    await settle();
    expect(setup.platform.playRemote).not.toHaveBeenCalled();
    setup.signalling.deliver({ type: 'media.connected', callId: 'c1' });

    const media = await setup.connecting;
    expect(media.transport).toBe('webrtc');
    expect(setup.platform.playRemote).toHaveBeenCalledWith(peer.receivedTrack);
    expect(setup.sockets).toEqual([]);
    expect(setup.platform.startAudio).not.toHaveBeenCalled();
  });

  it('caps the bitrate at 16 kbit/s each way in Low Data Mode', async () => {
    const setup = setUp({}, { sampleRate: 8_000 });
    const peer = await offered(setup);
    expect(peer.transceivers[0]!.init.sendEncodings).toEqual([{ maxBitrate: OPUS_LOW_DATA_BITRATE }]);
    const [offer] = setup.signalling.sent;
    expect(offer?.type === 'media.offer' && offer.sdp).toContain('maxaveragebitrate=16000');
  });

  it('sends the offer without all its candidates after 1.5 s of gathering', async () => {
    const setup = setUp();
    await vi.advanceTimersByTimeAsync(1_499);
    expect(setup.signalling.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(setup.signalling.types()).toEqual(['media.offer']);
  });

  it('falls back to the websocket with Opus when the server refuses the offer, keeping the microphone', async () => {
    const setup = setUp();
    const peer = await offered(setup);
    setup.signalling.deliver({ type: 'error', code: 'invalid_message', message: 'Something else', callId: 'c2' });
    expect(peer.closed).toBe(false);
    setup.signalling.deliver({ type: 'error', code: 'webrtc_unavailable', message: 'WebRTC is off', callId: 'c1' });

    const media = await setup.connecting;
    expect(peer.closed).toBe(true);
    expect(media.transport).toBe('websocket-opus');
    expect(setup.sockets.map((socket) => socket.path)).toEqual(['/api/v1/calls/c1/media?codec=opus']);
    expect(setup.platform.startAudio).toHaveBeenCalledWith(setup.microphone.stream, 16_000, expect.anything());
    expect(setup.microphone.track.stop).not.toHaveBeenCalled();
  });

  it.each([
    ['neither side is up', 'connecting'],
    ['the browser’s side is up but the server never says its side is (a stalled DTLS handshake)', 'connected'],
  ] as const)('falls back when, 5 s on, %s', async (_when, browserSide) => {
    const setup = setUp();
    const peer = await offered(setup);
    setup.signalling.deliver({ type: 'media.answer', callId: 'c1', sdp: 'v=0 answer' });
    peer.becomes(browserSide);
    await vi.advanceTimersByTimeAsync(WEBRTC_CONNECT_TIMEOUT_MS - 1);
    expect(setup.sockets).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);

    const media = await setup.connecting;
    expect(peer.closed).toBe(true);
    expect(media.transport).toBe('websocket-opus');
    expect(setup.platform.playRemote).not.toHaveBeenCalled();
    // A late connection changes nothing.
    peer.becomes('connected');
    setup.signalling.deliver({ type: 'media.connected', callId: 'c1' });
    expect(setup.onDrop).not.toHaveBeenCalled();
  });

  it('waits for its own side when the server’s comes up first', async () => {
    const setup = setUp();
    const peer = await offered(setup);
    setup.signalling.deliver({ type: 'media.answer', callId: 'c1', sdp: 'v=0 answer' });
    setup.signalling.deliver({ type: 'media.connected', callId: 'c1' });
    await settle();
    expect(setup.platform.playRemote).not.toHaveBeenCalled();
    peer.becomes('connected');
    expect((await setup.connecting).transport).toBe('webrtc');
  });

  it('falls back at once when the connection fails, or the offer cannot go out', async () => {
    const failing = setUp();
    (await offered(failing)).becomes('failed');
    expect((await failing.connecting).transport).toBe('websocket-opus');

    const unsent = setUp();
    unsent.signalling.open = false;
    await offered(unsent);
    expect((await unsent.connecting).transport).toBe('websocket-opus');
  });

  it.each([
    ['the server has WebRTC off', { config: { webrtc: false, iceServers: [] } }],
    ['the browser has no RTCPeerConnection', { webrtc: false }],
    ['the media config cannot be read', { config: new Error('Cannot reach Voxline') }],
  ])('goes straight to the websocket with Opus when %s', async (_when, platformOptions) => {
    const setup = setUp(platformOptions);
    const media = await setup.connecting;
    expect(media.transport).toBe('websocket-opus');
    expect(setup.peers).toEqual([]);
    expect(setup.sockets.map((socket) => socket.path)).toEqual(['/api/v1/calls/c1/media?codec=opus']);
  });

  it('goes straight to the websocket while the tab has no realtime socket', async () => {
    const setup = setUp({}, { signalling: null });
    expect((await setup.connecting).transport).toBe('websocket-opus');
    expect(setup.peers).toEqual([]);
  });
});

describe('the websocket fallback', () => {
  it('carries PCM at the call’s rate where WebCodecs cannot encode Opus', async () => {
    const wide = setUp({ webCodecs: false, config: { webrtc: false, iceServers: [] } });
    expect((await wide.connecting).transport).toBe('websocket-pcm');
    expect(wide.sockets[0]!.path).toBe('/api/v1/calls/c1/media?codec=pcm');
    expect(wide.platform.startAudio).toHaveBeenCalledWith(wide.microphone.stream, 16_000, expect.anything());

    const narrow = setUp({ webCodecs: false, config: { webrtc: false, iceServers: [] } }, { sampleRate: 8_000 });
    await narrow.connecting;
    expect(narrow.platform.startAudio).toHaveBeenCalledWith(narrow.microphone.stream, 8_000, expect.anything());
  });

  it('carries PCM where the browser has WebCodecs but no Opus', async () => {
    const setup = setUp({ config: { webrtc: false, iceServers: [] } });
    vi.mocked(setup.platform.webCodecs!.AudioEncoder.isConfigSupported).mockResolvedValue({ supported: false });
    expect((await setup.connecting).transport).toBe('websocket-pcm');
  });

  it('keeps Opus at 16 kHz in Low Data Mode, capped at 16 kbit/s', async () => {
    const setup = setUp({ config: { webrtc: false, iceServers: [] } }, { sampleRate: 8_000 });
    expect((await setup.connecting).transport).toBe('websocket-opus');
    expect(setup.platform.startAudio).toHaveBeenCalledWith(setup.microphone.stream, 16_000, expect.anything());
    expect(setup.codecs.encoders[0]!.configs).toEqual([expect.objectContaining({ codec: 'opus', sampleRate: 16_000, numberOfChannels: 1, bitrate: OPUS_LOW_DATA_BITRATE })]);
  });
});
