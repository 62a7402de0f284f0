/**
 * What a simulated browser puts on a media socket and how it reads what comes back: stamped PCM
 * frames (stamped-pcm-wire.ts) or Opus packets (opus-wire.ts).
 */
export interface MediaWire {
  /** The message carrying frame `sequence` of the stream. */
  message(sequence: number): Buffer;
  /**
   * Which frame a received message is: its sequence number, `altered` when it is not a frame of
   * this stream as sent (changed on the way, or another stream's), or `stale` when it is one of an
   * earlier run's. `arrivals` is how many messages were taken as this stream's frames before it.
   */
  arrival(data: Buffer, isBinary: boolean, arrivals: number): number | 'altered' | 'stale';
}

/**
 * A binary message's size on the socket: the payload and the WebSocket frame header (RFC 6455
 * §5.2), with the 4-byte mask that every message from a browser carries. TCP and IP are not counted.
 */
export function webSocketBytes(payloadBytes: number, fromBrowser: boolean): number {
  const length = payloadBytes < 126 ? 0 : payloadBytes < 65_536 ? 2 : 8;
  return 2 + length + (fromBrowser ? 4 : 0) + payloadBytes;
}
