import type { MediaTransport } from '../../common/media';

/**
 * How a call's audio is doing, for the network bench and the call's details. Rates and shares
 * cover the time since the previous reading (or since the audio connected); a figure the transport
 * cannot measure is left out.
 */
export interface CallMediaStats {
  transport: MediaTransport;
  /** The codec of the audio received, e.g. `Opus`. */
  codec?: string;
  /** Packets received and lost since the audio connected. */
  packetsReceived?: number;
  packetsLost?: number;
  /** Share (0…1) of the packets expected that were lost. */
  lossShare?: number;
  /** The microphone's level (0…1) as sent: the loudest moment since the previous reading. */
  micLevel?: number;
  /** Bits per second of audio sent and received: RTP payloads and headers, or websocket messages. */
  bitrateOut?: number;
  bitrateIn?: number;
  /** Share (0…1) of the audio played that was made up to hide a late or lost packet. */
  concealedShare?: number;
  jitterMs?: number;
  roundTripMs?: number;
}

/** Bits per second of `bytes` carried over `ms`; undefined over no time at all. */
export function bitsPerSecond(bytes: number, ms: number): number | undefined {
  return ms > 0 ? Math.round((bytes * 8 * 1000) / ms) : undefined;
}

/** `part` of `whole`, 0…1; undefined when there was nothing. */
export function shareOf(part: number, whole: number): number | undefined {
  return whole > 0 ? part / whole : undefined;
}

/** The peak (0…1) of a frame of 16-bit PCM. */
export function peakOf(frame: ArrayBuffer): number {
  const samples = new Int16Array(frame);
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  return peak / 32_768;
}
