import { Decoder } from '@evan/opus';
import { WIDEBAND_RATE } from '../../common/calls';

/** Opus keeps time at 48 kHz whatever rate it is decoded at (RFC 7845 §4). */
const OPUS_CLOCK = 48_000;

/** What an Ogg Opus file holds that cannot be played: the message says what. */
export class OggOpusError extends Error {}

/** The packets of an Ogg file's first logical stream, and the last page's granule position. */
function oggPackets(bytes: Buffer): { packets: Buffer[]; lastGranule: bigint } {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  let serial: number | null = null;
  let lastGranule = -1n;
  let offset = 0;
  while (offset + 27 <= bytes.length) {
    if (bytes.toString('ascii', offset, offset + 4) !== 'OggS') throw new OggOpusError('not an Ogg file');
    const segments = bytes[offset + 26]!;
    const tableEnd = offset + 27 + segments;
    if (tableEnd > bytes.length) throw new OggOpusError('the Ogg file is cut short');
    const pageSerial = bytes.readUInt32LE(offset + 14);
    serial ??= pageSerial;
    let body = tableEnd;
    for (let i = 0; i < segments; i += 1) {
      const length = bytes[offset + 27 + i]!;
      if (body + length > bytes.length) throw new OggOpusError('the Ogg file is cut short');
      if (pageSerial === serial) {
        pending.push(bytes.subarray(body, body + length));
        // A segment shorter than 255 bytes ends its packet; 255 says the packet goes on.
        if (length < 255) {
          packets.push(Buffer.concat(pending));
          pending = [];
        }
      }
      body += length;
    }
    if (pageSerial === serial) {
      const granule = bytes.readBigInt64LE(offset + 6);
      if (granule >= 0n) lastGranule = granule;
    }
    offset = body;
  }
  if (packets.length === 0) throw new OggOpusError('not an Ogg file');
  return { packets, lastGranule };
}

/** A rate libopus decodes at. */
export type OpusDecodeRate = 8_000 | 12_000 | 16_000 | 24_000 | 48_000;

/** An Ogg Opus file read but not decoded: what its OpusHead says and its audio packets. */
export interface OggOpusStream {
  channels: 1 | 2;
  /** The rate the audio was encoded from (the head's input sample rate); it need not be the rate played at. */
  inputSampleRate: number;
  /** Samples at 48 kHz the decoder's output starts with that are not the file's audio. */
  preSkip: number;
  /** The Opus packets after the two headers. */
  audio: Buffer[];
  /** The last page's granule position (48 kHz), where the audio ends; -1 when no page gives one. */
  lastGranule: bigint;
}

/** Reads an Ogg Opus file of one or two channels (channel mapping family 0); throws OggOpusError for anything else. */
export function readOggOpus(bytes: Buffer): OggOpusStream {
  const { packets, lastGranule } = oggPackets(bytes);
  const head = packets[0]!;
  if (head.length < 19 || head.toString('ascii', 0, 8) !== 'OpusHead') throw new OggOpusError('the Ogg file does not hold Opus audio');
  const channels = head[9]!;
  if (head[18] !== 0 || (channels !== 1 && channels !== 2)) throw new OggOpusError('only mono or stereo Opus is played');
  // packets[1] is OpusTags; audio follows.
  return { channels, inputSampleRate: head.readUInt32LE(12), preSkip: head.readUInt16LE(10), audio: packets.slice(2), lastGranule };
}

/**
 * Decodes a stream's audio (any Opus packet length) to 16-bit PCM at `sampleRate`, its channels
 * interleaved: the encoder's pre-skip and the last page's end trim are honoured, so the samples are
 * the file's own. Throws OggOpusError for audio that does not decode.
 */
export function decodeOggOpusStream({ channels, preSkip, audio, lastGranule }: OggOpusStream, sampleRate: OpusDecodeRate): Int16Array {
  const decoder = new Decoder({ channels, sample_rate: sampleRate });
  const ratio = OPUS_CLOCK / sampleRate;
  const chunks: Int16Array[] = [];
  let total = 0;
  for (const packet of audio) {
    let pcm: Uint8Array;
    try {
      pcm = decoder.decode(packet);
    } catch {
      throw new OggOpusError('the Opus audio does not decode');
    }
    // Kept as a copy: the decoder's output is not promised to outlive its next decode.
    const chunk = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength >> 1).slice();
    chunks.push(chunk);
    total += chunk.length;
  }
  const all = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  const frames = total / channels;
  const start = Math.min(frames, Math.round(preSkip / ratio));
  const end = lastGranule > 0n ? Math.min(frames, Math.round(Number(lastGranule) / ratio)) : frames;
  return all.slice(start * channels, Math.max(start, end) * channels);
}

/**
 * Decodes an Ogg Opus file (mono or stereo) to mono 16-bit PCM at 16 kHz, the rate of the server's
 * calls. Throws OggOpusError for anything else.
 */
export function decodeOggOpus(bytes: Buffer): Int16Array {
  const stream = readOggOpus(bytes);
  const pcm = decodeOggOpusStream(stream, WIDEBAND_RATE);
  if (stream.channels === 1) return pcm;
  const mono = new Int16Array(pcm.length / 2);
  for (let i = 0; i < mono.length; i += 1) mono[i] = (pcm[2 * i]! + pcm[2 * i + 1]!) >> 1;
  return mono;
}
