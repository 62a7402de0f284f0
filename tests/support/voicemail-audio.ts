import type { MediaClient } from './media-client';
import { until } from './until';
import { VOICEMAIL_BEEP } from '../../src/server/media/voicemail-party';

/** A 16-bit PCM WAV of a sine tone, as a browser's recorder would upload it. */
export function toneWav({ hz, seconds, sampleRate = 16_000, channels = 1 }: { hz: number; seconds: number; sampleRate?: number; channels?: number }): Buffer {
  const frames = Math.round(sampleRate * seconds);
  const data = Buffer.alloc(frames * 2 * channels);
  for (let i = 0; i < frames; i += 1) {
    const sample = Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / sampleRate));
    for (let channel = 0; channel < channels; channel += 1) data.writeInt16LE(sample, (i * channels + channel) * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The share of the frames' energy at `hz` (near 1 for a pure tone at it, near 0 for anything else). */
export function shareAt(frames: Int16Array[], hz: number, sampleRate = 16_000): number {
  let re = 0;
  let im = 0;
  let energy = 0;
  let n = 0;
  for (const frame of frames) {
    for (const sample of frame) {
      re += sample * Math.cos((2 * Math.PI * hz * n) / sampleRate);
      im += sample * Math.sin((2 * Math.PI * hz * n) / sampleRate);
      energy += sample * sample;
      n += 1;
    }
  }
  return energy === 0 ? 0 : (re * re + im * im) / ((n / 2) * energy);
}

/**
 * Waits until what `media` received holds the whole voicemail beep (1 kHz for its length), and
 * answers the frame it starts at: whatever came before it is the greeting.
 */
export async function beepHeardBy(media: Pick<MediaClient, 'received'>, timeoutMs = 15_000): Promise<number> {
  const beepFrames = VOICEMAIL_BEEP.ms / 20;
  let next = 0;
  let start = -1;
  await until(() => {
    const { received } = media;
    for (; start < 0 && next + 5 <= received.length; next += 1) {
      if (shareAt(received.slice(next, next + 5), VOICEMAIL_BEEP.hz) > 0.8) start = next;
    }
    return start >= 0 && received.length >= start + beepFrames;
  }, timeoutMs);
  return start;
}
