/**
 * Milliseconds of one frame for each TOC configuration (RFC 6716 §3.1, table 2): SILK-only
 * narrow, medium and wideband (10, 20, 40, 60), hybrid super-wide and fullband (10, 20), CELT-only
 * narrow to fullband (2.5, 5, 10, 20).
 */
const FRAME_MS = [
  ...[0, 1, 2].flatMap(() => [10, 20, 40, 60]),
  ...[0, 1].flatMap(() => [10, 20]),
  ...[0, 1, 2, 3].flatMap(() => [2.5, 5, 10, 20]),
];

/**
 * How many milliseconds of audio an Opus packet holds, read from its table-of-contents byte and,
 * for code 3, its frame count (RFC 6716 §3.1–3.2); null for a packet too short to say.
 */
export function opusPacketMs(packet: Uint8Array): number | null {
  if (packet.byteLength === 0) return null;
  const toc = packet[0]!;
  const frameMs = FRAME_MS[toc >> 3]!;
  const code = toc & 0b11;
  if (code === 0) return frameMs;
  if (code === 1 || code === 2) return 2 * frameMs;
  if (packet.byteLength < 2) return null;
  const frames = packet[1]! & 0b11_1111;
  return frames === 0 ? null : frames * frameMs;
}
