import type { MediaTransport } from '../../common/media';

/**
 * How a call's audio is doing, for the network bench and the call's details. Rates and shares
 * cover the time since the previous reading (or since the audio connected); a figure the transport
 * cannot measure is left out.
 */
export interface CallMediaStats {
  transport: MediaTransport;
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
