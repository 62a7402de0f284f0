import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toneFrames } from '../../../../tests/support/dsp/tone-frames';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE, OPUS_MIN_BITRATE } from '../../../common/media';
import { OpusFrameDecoder, OpusFrameEncoder } from '../opus/opus-codec';
import type { OutgoingRtp } from './rtp-sending';
import { COULD_NOT_CONNECT, CONNECTION_LOST, WebRtcLeg, type AudioPeer, type PeerState } from './webrtc-leg';

/** A peer connection the test drives by hand. */
class FakePeer implements AudioPeer {
  readonly sent: OutgoingRtp[] = [];
  /** How many packets had been sent when each new stream began. */
  readonly restartedAt: number[] = [];
  closed = 0;
  private stateListener: (state: PeerState) => void = () => {};
  private rtpListener: (ssrc: number, sequenceNumber: number, payload: Uint8Array) => void = () => {};
  private reportListener: (fractionLost: number | undefined) => void = () => {};

  onState(listener: (state: PeerState) => void) {
    this.stateListener = listener;
  }
  onRtp(listener: (ssrc: number, sequenceNumber: number, payload: Uint8Array) => void) {
    this.rtpListener = listener;
  }
  onReport(listener: (fractionLost: number | undefined) => void) {
    this.reportListener = listener;
  }
  sendRtp(packet: OutgoingRtp) {
    this.sent.push(packet);
  }
  restartStream() {
    this.restartedAt.push(this.sent.length);
  }
  close() {
    this.closed += 1;
    return Promise.resolve();
  }

  state(state: PeerState) {
    this.stateListener(state);
  }
  rtp(sequenceNumber: number, payload: Uint8Array) {
    this.rtpListener(7, sequenceNumber, payload);
  }
  report(fractionLost?: number) {
    this.reportListener(fractionLost);
  }
}

const timing = { connectTimeoutMs: 15_000, disconnectTimeoutMs: 10_000 };

function legOn(peer: FakePeer, bitrate = OPUS_BITRATE) {
  const leg = new WebRtcLeg(peer, { bitrate, ...timing });
  const closes: string[] = [];
  const frames: Int16Array[] = [];
  leg.onClose((reason) => closes.push(reason));
  leg.onFrame((frame) => frames.push(frame.slice()));
  return { leg, closes, frames };
}

const encoder = new OpusFrameEncoder(16_000, 32_000);
const packetOf = (frame: Int16Array) => encoder.encode(frame).slice();

describe('WebRtcLeg', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('is a 16 kHz browser leg that tells its listeners once when it connects', () => {
    const peer = new FakePeer();
    const { leg } = legOn(peer);
    expect([leg.kind, leg.sampleRate]).toEqual(['browser', 16_000]);
    const connected = vi.fn();
    leg.onConnected(connected);
    peer.state('connected');
    peer.state('connected');
    expect(connected).toHaveBeenCalledTimes(1);
    const late = vi.fn();
    leg.onConnected(late);
    expect(late).toHaveBeenCalledTimes(1);
    leg.close('hung up');
    const afterClose = vi.fn();
    leg.onConnected(afterClose);
    expect(afterClose).not.toHaveBeenCalled();
  });

  it('neither plays nor sends audio before it is connected', () => {
    const peer = new FakePeer();
    const { leg, frames } = legOn(peer);
    const [tone] = toneFrames(440, 16_000, 1);
    peer.rtp(1, packetOf(tone!));
    leg.send(tone!);
    expect(frames).toHaveLength(0);
    expect(peer.sent).toHaveLength(0);
    expect(leg.stats.packetsIn + leg.stats.packetsOut).toBe(0);
  });

  it('decodes the browser packets to frames and sends each frame as one Opus packet, once connected', () => {
    const peer = new FakePeer();
    const { leg, frames } = legOn(peer);
    peer.state('connected');
    const tone = toneFrames(440, 16_000, 3);
    tone.forEach((frame, i) => peer.rtp(100 + i, packetOf(frame)));
    expect(frames).toHaveLength(3);
    for (const frame of tone) leg.send(frame);
    expect(peer.sent.map((packet) => packet.sequenceNumber - peer.sent[0]!.sequenceNumber)).toEqual([0, 1, 2]);
    expect(new OpusFrameDecoder(16_000).decode(peer.sent[0]!.payload)).toHaveLength(320);
    expect(leg.stats).toMatchObject({ packetsIn: 3, packetsOut: 3, concealedFrames: 0, malformed: 0, lateOrDuplicate: 0 });
  });

  it('closes as unable to connect when the connection is not up in time, and closes its peer', () => {
    const peer = new FakePeer();
    const { closes } = legOn(peer);
    vi.advanceTimersByTime(timing.connectTimeoutMs - 1);
    expect(closes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(closes).toEqual([COULD_NOT_CONNECT]);
    expect(peer.closed).toBe(1);
  });

  it('closes as unable to connect when ICE fails before it is up', () => {
    const peer = new FakePeer();
    const { closes } = legOn(peer);
    peer.state('failed');
    expect(closes).toEqual([COULD_NOT_CONNECT]);
  });

  it('closes as lost when a connected browser falls silent, however long it talked before', () => {
    const peer = new FakePeer();
    const { closes } = legOn(peer);
    peer.state('connected');
    const [tone] = toneFrames(440, 16_000, 1);
    for (let i = 0; i < 100; i += 1) {
      vi.advanceTimersByTime(9_000);
      if (i % 2 === 0) peer.rtp(i, packetOf(tone!));
      else peer.report();
    }
    expect(closes).toEqual([]);
    vi.advanceTimersByTime(timing.disconnectTimeoutMs);
    expect(closes).toEqual([CONNECTION_LOST]);
    expect(peer.closed).toBe(1);
  });

  it('closes as lost when a connected peer drops', () => {
    for (const state of ['disconnected', 'failed', 'closed'] as const) {
      const peer = new FakePeer();
      const { closes } = legOn(peer);
      peer.state('connected');
      peer.state(state);
      expect(closes).toEqual([CONNECTION_LOST]);
    }
  });

  it('closes its peer once when closed, and stops its timers', () => {
    const peer = new FakePeer();
    const { leg, closes } = legOn(peer);
    peer.state('connected');
    leg.close('hung up');
    leg.close('again');
    peer.state('closed');
    vi.advanceTimersByTime(60_000);
    expect(closes).toEqual(['hung up']);
    expect(peer.closed).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lowers its bitrate while the browser reports loss, and climbs back no higher than its cap', () => {
    const peer = new FakePeer();
    const { leg } = legOn(peer, OPUS_LOW_DATA_BITRATE);
    peer.state('connected');
    for (let i = 0; i < 5; i += 1) peer.report(0.2);
    expect(leg.bitrate).toBe(OPUS_MIN_BITRATE);
    for (let i = 0; i < 10; i += 1) peer.report(0);
    expect(leg.bitrate).toBe(OPUS_LOW_DATA_BITRATE);
  });

  it('starts its stream afresh at a quiet moment when the browser says its playout runs late, and not before asked', () => {
    const peer = new FakePeer();
    const { leg } = legOn(peer);
    peer.state('connected');
    const speech = toneFrames(200, 16_000, 10);
    const quiet = new Int16Array(320);
    for (const frame of speech) leg.send(frame);
    for (let i = 0; i < 20; i += 1) leg.send(quiet);
    expect(peer.restartedAt).toEqual([]);

    leg.catchUpPlayout(100);
    for (const frame of speech) leg.send(frame);
    expect(peer.restartedAt).toEqual([]);
    for (let i = 0; i < 10; i += 1) leg.send(quiet);
    // 100 ms of quiet is five frames: the fifth goes out as the new stream's first packet, marked.
    expect(peer.restartedAt).toEqual([30 + 10 + 4]);
    expect(peer.sent.filter((packet) => packet.marker).length).toBe(2);
    expect(peer.sent[44]!.marker).toBe(true);
    expect(leg.stats).toMatchObject({ catchUpRequests: 1, streamRestarts: 1 });
  });
});
