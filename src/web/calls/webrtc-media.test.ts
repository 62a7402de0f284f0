import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeMediaPlatform, fakeMicrophone } from '../../../tests/support/fake-call-media';
import { FakeSignalling } from '../../../tests/support/fake-signalling';
import { WebRtcMedia } from './webrtc-media';

const settle = () => vi.advanceTimersByTimeAsync(0);

/** A WebRTC call's audio, connected: offered, answered and up at both ends. */
async function connected(prepare: (fake: ReturnType<typeof fakeMediaPlatform>) => void = () => {}) {
  const fake = fakeMediaPlatform();
  const { platform, peers, remote } = fake;
  prepare(fake);
  const signalling = new FakeSignalling();
  const microphone = fakeMicrophone();
  const onDrop = vi.fn();
  const connecting = WebRtcMedia.connect({ callId: 'c1', signalling, stream: microphone.stream, iceServers: [], bitrate: 32_000, onDrop }, { ...platform, createPeer: platform.createPeer! });
  await settle();
  const peer = peers[0]!;
  peer.gathered();
  await settle();
  signalling.deliver({ type: 'media.answer', callId: 'c1', sdp: 'v=0 answer' });
  peer.becomes('connected');
  signalling.deliver({ type: 'media.connected', callId: 'c1' });
  return { connecting, peer, microphone, onDrop, remote, platform, signalling };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('WebRtcMedia', () => {
  it('mutes by disabling the microphone track, and unmutes', async () => {
    const { connecting, microphone } = await connected();
    const media = (await connecting)!;
    media.setMuted(true);
    expect(microphone.track.enabled).toBe(false);
    media.setMuted(false);
    expect(microphone.track.enabled).toBe(true);
  });

  it('reports a connection that fails once up as a drop, never a fallback', async () => {
    const { connecting, peer, onDrop } = await connected();
    await connecting;
    peer.becomes('disconnected');
    expect(onDrop).not.toHaveBeenCalled();
    peer.becomes('failed');
    expect(onDrop).toHaveBeenCalledOnce();
    expect(onDrop).toHaveBeenCalledWith(false);
  });

  it('drops as signed out when the session’s end closes the signalling socket, once', async () => {
    const { connecting, peer, onDrop, signalling } = await connected();
    await connecting;
    signalling.signOut();
    peer.becomes('closed');
    expect(onDrop).toHaveBeenCalledOnce();
    expect(onDrop).toHaveBeenCalledWith(true);
  });

  it('asks the server to catch up when its audio plays later than the clean link needs, and stops watching once closed', async () => {
    const { connecting, peer, signalling } = await connected();
    const media = (await connecting)!;
    // The jitter buffer a bad stretch left: 400 ms a sample, on a link now clean.
    const playing = (seconds: number) =>
      new Map([['in', { id: 'in', type: 'inbound-rtp', kind: 'audio', timestamp: 0, ssrc: 5, jitterBufferDelay: 0.4 * 16_000 * seconds, jitterBufferEmittedCount: 16_000 * seconds, jitter: 0.002, packetsLost: 0 } as RTCStats]]);
    peer.report = playing(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(signalling.sent.filter((message) => message.type === 'media.catchUp')).toEqual([]);
    peer.report = playing(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(signalling.sent.filter((message) => message.type === 'media.catchUp')).toEqual([{ type: 'media.catchUp', callId: 'c1', bufferedMs: 400 }]);

    media.close();
    peer.report = playing(30);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(signalling.sent.filter((message) => message.type === 'media.catchUp')).toHaveLength(1);
  });

  it('no longer hears a sign-out once closed', async () => {
    const { connecting, onDrop, signalling } = await connected();
    (await connecting)!.close();
    signalling.signOut();
    expect(onDrop).not.toHaveBeenCalled();
  });

  it('closes the peer, the microphone and the far side’s audio, without a drop', async () => {
    const { connecting, peer, microphone, remote, onDrop } = await connected();
    (await connecting)!.close();
    expect(peer.closed).toBe(true);
    expect(microphone.track.stop).toHaveBeenCalled();
    expect(remote.stop).toHaveBeenCalled();
    peer.becomes('failed');
    expect(onDrop).not.toHaveBeenCalled();
  });

  it('stops the microphone and says so when the far side cannot play', async () => {
    const { connecting, microphone, peer } = await connected(({ platform }) => platform.playRemote.mockRejectedValueOnce(new Error('No audio output')));
    await expect(connecting).rejects.toThrow('No audio output');
    expect(microphone.track.stop).toHaveBeenCalled();
    expect(peer.closed).toBe(true);
  });

  it('is cut off when the connection fails while the far side’s audio starts', async () => {
    const { connecting, microphone, remote, onDrop } = await connected(({ platform, peers, remote: playing }) =>
      platform.playRemote.mockImplementationOnce(async () => {
        peers[0]!.becomes('failed');
        return playing;
      }),
    );
    await expect(connecting).rejects.toThrow('The call was cut off');
    expect(microphone.track.stop).toHaveBeenCalled();
    expect(remote.stop).toHaveBeenCalled();
    expect(onDrop).not.toHaveBeenCalled();
  });

  it('reads its figures from the peer’s stats, as rates since the previous reading', async () => {
    const { connecting, peer } = await connected();
    const media = (await connecting)!;
    const report = (fields: { sent: number; received: number; concealed: number; samples: number; at: number }) =>
      new Map<string, RTCStats>([
        ['OT', { id: 'OT', type: 'outbound-rtp', kind: 'audio', timestamp: fields.at, bytesSent: fields.sent, headerBytesSent: 0 } as RTCOutboundRtpStreamStats],
        ['IT', { id: 'IT', type: 'inbound-rtp', kind: 'audio', timestamp: fields.at, bytesReceived: fields.received, jitter: 0.004, concealedSamples: fields.concealed, totalSamplesReceived: fields.samples } as RTCInboundRtpStreamStats],
        ['T', { id: 'T', type: 'transport', timestamp: fields.at, selectedCandidatePairId: 'CP' } as RTCTransportStats],
        ['CP', { id: 'CP', type: 'candidate-pair', timestamp: fields.at, state: 'succeeded', nominated: true, currentRoundTripTime: 0.021 } as RTCIceCandidatePairStats],
      ]);
    peer.report = report({ sent: 4_000, received: 3_000, concealed: 0, samples: 16_000, at: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await media.stats()).toEqual({ transport: 'webrtc', bitrateOut: 32_000, bitrateIn: 24_000, concealedShare: 0, jitterMs: 4, roundTripMs: 21 });

    peer.report = report({ sent: 12_000, received: 5_000, concealed: 1_600, samples: 48_000, at: 2 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await media.stats()).toMatchObject({ bitrateOut: 32_000, bitrateIn: 8_000, concealedShare: 0.05 });
  });
});
