import { bitsPerSecond, shareOf, type CallMediaStats } from './call-media-stats';

/** The running RTP counts of a call, kept to report rates between two readings. */
export interface RtpCounts {
  /** When they were read (ms, the caller's clock). */
  at: number;
  /** The SSRC of the audio received: the server may start a new stream, whose counts start again. */
  inboundSsrc: number | undefined;
  bytesSent: number;
  bytesReceived: number;
  concealedSamples: number;
  samplesReceived: number;
  packetsReceived: number;
  packetsLost: number;
}

export function noRtpYet(at: number): RtpCounts {
  return { at, inboundSsrc: undefined, bytesSent: 0, bytesReceived: 0, concealedSamples: 0, samplesReceived: 0, packetsReceived: 0, packetsLost: 0 };
}

const inMs = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

/** `audio/opus` → `Opus`, `audio/PCMU` → `PCMU`. */
function codecName(mimeType: string): string {
  const name = mimeType.slice(mimeType.indexOf('/') + 1);
  return name === name.toLowerCase() ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/**
 * A WebRTC call's figures from RTCPeerConnection.getStats(): the audio RTP streams each way
 * (payload and RTP headers), concealment and jitter from the receiving side, and the round trip
 * of the candidate pair in use (else the one RTCP reports). Also the codec received, packets
 * received and lost, and the microphone's level as its track reports it.
 */
export function readWebRtcStats(report: RTCStatsReport, previous: RtpCounts, at: number): { stats: CallMediaStats; counts: RtpCounts } {
  let inbound: RTCInboundRtpStreamStats | undefined;
  let outbound: RTCOutboundRtpStreamStats | undefined;
  let transport: RTCTransportStats | undefined;
  let remoteInbound: { roundTripTime?: number } | undefined;
  let micLevel: number | undefined;
  const pairs: RTCIceCandidatePairStats[] = [];
  report.forEach((entry: RTCStats) => {
    if (entry.type === 'inbound-rtp' && (entry as RTCInboundRtpStreamStats).kind === 'audio') inbound = entry as RTCInboundRtpStreamStats;
    else if (entry.type === 'outbound-rtp' && (entry as RTCOutboundRtpStreamStats).kind === 'audio') outbound = entry as RTCOutboundRtpStreamStats;
    else if (entry.type === 'transport') transport = entry as RTCTransportStats;
    else if (entry.type === 'candidate-pair') pairs.push(entry as RTCIceCandidatePairStats);
    else if (entry.type === 'remote-inbound-rtp' && (entry as { kind?: string }).kind === 'audio') remoteInbound = entry as { roundTripTime?: number };
    else if (entry.type === 'media-source' && (entry as { kind?: string }).kind === 'audio') micLevel = (entry as { audioLevel?: number }).audioLevel;
  });
  const selected = transport?.selectedCandidatePairId === undefined ? undefined : (report.get(transport.selectedCandidatePairId) as RTCIceCandidatePairStats | undefined);
  const pair = selected ?? pairs.find((candidate) => candidate.nominated && candidate.state === 'succeeded');
  const counts: RtpCounts = {
    at,
    inboundSsrc: inbound?.ssrc,
    bytesSent: (outbound?.bytesSent ?? 0) + (outbound?.headerBytesSent ?? 0),
    bytesReceived: (inbound?.bytesReceived ?? 0) + (inbound?.headerBytesReceived ?? 0),
    concealedSamples: inbound?.concealedSamples ?? 0,
    samplesReceived: inbound?.totalSamplesReceived ?? 0,
    packetsReceived: inbound?.packetsReceived ?? 0,
    packetsLost: Math.max(0, inbound?.packetsLost ?? 0),
  };
  const codec = inbound?.codecId === undefined ? undefined : (report.get(inbound.codecId) as { mimeType: string } | undefined);
  // A new stream's counts start from nothing: its rates count from there.
  const before = previous.inboundSsrc !== undefined && previous.inboundSsrc !== counts.inboundSsrc ? { ...previous, bytesReceived: 0, concealedSamples: 0, samplesReceived: 0, packetsReceived: 0, packetsLost: 0 } : previous;
  const lost = counts.packetsLost - before.packetsLost;
  const elapsed = at - before.at;
  const stats: CallMediaStats = {
    transport: 'webrtc',
    codec: codec ? codecName(codec.mimeType) : undefined,
    packetsReceived: inbound?.packetsReceived,
    packetsLost: inbound?.packetsLost === undefined ? undefined : counts.packetsLost,
    lossShare: inbound?.packetsReceived === undefined ? undefined : shareOf(Math.max(0, lost), Math.max(0, lost) + counts.packetsReceived - before.packetsReceived),
    micLevel,
    bitrateOut: bitsPerSecond(counts.bytesSent - before.bytesSent, elapsed),
    bitrateIn: bitsPerSecond(counts.bytesReceived - before.bytesReceived, elapsed),
    concealedShare: shareOf(counts.concealedSamples - before.concealedSamples, counts.samplesReceived - before.samplesReceived),
    jitterMs: inMs(inbound?.jitter),
    roundTripMs: inMs(pair?.currentRoundTripTime ?? remoteInbound?.roundTripTime),
  };
  return { stats, counts };
}
