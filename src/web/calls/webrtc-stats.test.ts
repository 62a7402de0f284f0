import { describe, expect, it } from 'vitest';
import { noRtpYet, readWebRtcStats } from './webrtc-stats';

const report = (entries: RTCStats[]) => new Map(entries.map((entry) => [entry.id, entry])) as unknown as RTCStatsReport;

describe('readWebRtcStats', () => {
  it('counts RTP headers with the payload, and only the audio streams', () => {
    const { stats, counts } = readWebRtcStats(
      report([
        { id: 'OT', type: 'outbound-rtp', kind: 'audio', timestamp: 0, bytesSent: 3_000, headerBytesSent: 1_000 } as RTCOutboundRtpStreamStats,
        { id: 'OV', type: 'outbound-rtp', kind: 'video', timestamp: 0, bytesSent: 900_000 } as RTCOutboundRtpStreamStats,
        { id: 'IT', type: 'inbound-rtp', kind: 'audio', timestamp: 0, bytesReceived: 1_500, headerBytesReceived: 500 } as RTCInboundRtpStreamStats,
      ]),
      noRtpYet(0),
      2_000,
    );
    expect(stats).toMatchObject({ transport: 'webrtc', bitrateOut: 16_000, bitrateIn: 8_000 });
    expect(counts).toEqual({ at: 2_000, bytesSent: 4_000, bytesReceived: 2_000, concealedSamples: 0, samplesReceived: 0, packetsReceived: 0, packetsLost: 0 });
  });

  it('takes the round trip of the nominated pair when the transport names none', () => {
    const { stats } = readWebRtcStats(
      report([
        { id: 'P1', type: 'candidate-pair', timestamp: 0, state: 'failed', nominated: false, currentRoundTripTime: 0.5 } as RTCIceCandidatePairStats,
        { id: 'P2', type: 'candidate-pair', timestamp: 0, state: 'succeeded', nominated: true, currentRoundTripTime: 0.08 } as RTCIceCandidatePairStats,
      ]),
      noRtpYet(0),
      1_000,
    );
    expect(stats.roundTripMs).toBe(80);
  });

  it('reads the codec, the packets lost since the last reading, and the microphone level', () => {
    const inbound = (packetsReceived: number, packetsLost: number) =>
      ({ id: 'IT', type: 'inbound-rtp', kind: 'audio', timestamp: 0, codecId: 'C1', packetsReceived, packetsLost, jitter: 0.012 }) as RTCInboundRtpStreamStats;
    const codec = { id: 'C1', type: 'codec', timestamp: 0, mimeType: 'audio/opus', clockRate: 48_000, payloadType: 111 } as RTCStats;
    const mic = { id: 'M1', type: 'media-source', kind: 'audio', timestamp: 0, audioLevel: 0.25 } as RTCStats;
    const rtcp = { id: 'R1', type: 'remote-inbound-rtp', kind: 'audio', timestamp: 0, roundTripTime: 0.12 } as RTCStats;
    const first = readWebRtcStats(report([inbound(100, 0), codec, mic, rtcp]), noRtpYet(0), 1_000);
    expect(first.stats).toMatchObject({ codec: 'Opus', packetsReceived: 100, packetsLost: 0, lossShare: 0, micLevel: 0.25, jitterMs: 12, roundTripMs: 120 });
    const second = readWebRtcStats(report([inbound(148, 2), codec]), first.counts, 2_000);
    expect(second.stats).toMatchObject({ packetsReceived: 148, packetsLost: 2, lossShare: 0.04, micLevel: undefined });
  });

  it('counts a new stream from nothing when the server starts one under a new SSRC', () => {
    const inbound = (ssrc: number, packetsReceived: number, bytesReceived: number) =>
      ({ id: `IT${ssrc}`, type: 'inbound-rtp', kind: 'audio', timestamp: 0, ssrc, packetsReceived, packetsLost: 0, bytesReceived, headerBytesReceived: 0 }) as RTCInboundRtpStreamStats;
    const first = readWebRtcStats(report([inbound(1, 500, 50_000)]), noRtpYet(0), 1_000);
    const second = readWebRtcStats(report([inbound(2, 40, 4_000)]), first.counts, 2_000);
    expect(second.stats).toMatchObject({ bitrateIn: 32_000, lossShare: 0 });
  });

  it('leaves out what it cannot know yet', () => {
    const { stats } = readWebRtcStats(report([]), noRtpYet(1_000), 1_000);
    expect(stats).toEqual({ transport: 'webrtc', bitrateOut: undefined, bitrateIn: undefined, concealedShare: undefined, jitterMs: undefined, roundTripMs: undefined });
  });
});
