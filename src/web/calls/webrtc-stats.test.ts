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
    expect(counts).toEqual({ at: 2_000, bytesSent: 4_000, bytesReceived: 2_000, concealedSamples: 0, samplesReceived: 0 });
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

  it('leaves out what it cannot know yet', () => {
    const { stats } = readWebRtcStats(report([]), noRtpYet(1_000), 1_000);
    expect(stats).toEqual({ transport: 'webrtc', bitrateOut: undefined, bitrateIn: undefined, concealedShare: undefined, jitterMs: undefined, roundTripMs: undefined });
  });
});
