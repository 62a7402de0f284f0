import { Decoder } from '@evan/opus';

/** What an Ogg Opus file holds: each channel's samples at the rate it was encoded at, pre-skip dropped. */
export interface DecodedOggOpus {
  sampleRate: number;
  channels: Int16Array[];
  durationMs: number;
}

const GRANULE_RATE = 48_000;

/** The packets of an Ogg stream's whole pages; a page cut short (a crash mid-write) ends the list. */
function oggPackets(bytes: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let partial: Buffer[] = [];
  for (let at = 0; at + 27 <= bytes.length; ) {
    if (bytes.toString('ascii', at, at + 4) !== 'OggS') throw new Error(`no Ogg page at byte ${at}`);
    const segments = bytes[at + 26]!;
    const lacingEnd = at + 27 + segments;
    if (lacingEnd > bytes.length) break;
    let bodyBytes = 0;
    for (let i = at + 27; i < lacingEnd; i += 1) bodyBytes += bytes[i]!;
    if (lacingEnd + bodyBytes > bytes.length) break;
    let body = lacingEnd;
    for (let i = at + 27; i < lacingEnd; i += 1) {
      const lace = bytes[i]!;
      partial.push(bytes.subarray(body, body + lace));
      body += lace;
      if (lace < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
    at = lacingEnd + bodyBytes;
  }
  return packets;
}

/** Decodes an Ogg Opus file (RFC 7845, mapping family 0), or the whole pages of one cut short. */
export function decodeOggOpus(bytes: Buffer): DecodedOggOpus {
  const [head, , ...audio] = oggPackets(bytes);
  if (!head || head.toString('ascii', 0, 8) !== 'OpusHead') throw new Error('not an Ogg Opus file: the first packet is not OpusHead');
  const channelCount = head[9] as 1 | 2;
  const sampleRate = head.readUInt32LE(12) as 8000 | 16000;
  const preSkip = head.readUInt16LE(10) / (GRANULE_RATE / sampleRate);
  const decoder = new Decoder({ channels: channelCount, sample_rate: sampleRate });
  const decoded = audio.map((packet) => {
    const pcm = decoder.decode(packet);
    return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
  });
  const total = decoded.reduce((sum, frame) => sum + frame.length / channelCount, 0);
  const length = Math.max(0, total - preSkip);
  const channels = Array.from({ length: channelCount }, () => new Int16Array(length));
  let frameAt = 0;
  for (const frame of decoded) {
    const samples = frame.length / channelCount;
    for (let i = 0; i < samples; i += 1) {
      const out = frameAt + i - preSkip;
      if (out < 0) continue;
      for (let c = 0; c < channelCount; c += 1) channels[c]![out] = frame[i * channelCount + c]!;
    }
    frameAt += samples;
  }
  return { sampleRate, channels, durationMs: (length / sampleRate) * 1000 };
}
