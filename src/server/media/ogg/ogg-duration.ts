/** Opus keeps time at 48 kHz whatever the input rate (RFC 7845 §4). */
const OPUS_CLOCK_PER_MS = 48;
const CAPTURE = [0x4f, 0x67, 0x67, 0x53]; // "OggS"

function isPageAt(bytes: Uint8Array, at: number): boolean {
  return CAPTURE.every((byte, i) => bytes[at + i] === byte);
}

/**
 * How long an Ogg Opus file plays, from its last complete page's granule position less the
 * pre-skip (RFC 7845 §4): what a crash left of a recording or a voicemail message is read this way. 0 for no audio.
 */
export function oggOpusDurationMs(bytes: Uint8Array): number {
  if (bytes.length < 27 || !isPageAt(bytes, 0)) return 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const firstBody = 27 + bytes[26]!;
  const preSkip = firstBody + 12 <= bytes.length ? view.getUint16(firstBody + 10, true) : 0;
  let granule = 0n;
  for (let at = 0; at + 27 <= bytes.length; ) {
    if (!isPageAt(bytes, at)) break;
    const segments = bytes[at + 26]!;
    let size = 27 + segments;
    for (let i = 0; i < segments && at + 27 + i < bytes.length; i += 1) size += bytes[at + 27 + i]!;
    // A page cut short by the crash is not playable: the last whole one counts.
    if (at + size > bytes.length) break;
    const position = view.getBigInt64(at + 6, true);
    if (position >= 0n) granule = position;
    at += size;
  }
  return Math.max(0, Number(granule - BigInt(preSkip)) / OPUS_CLOCK_PER_MS);
}
