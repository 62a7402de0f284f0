import { describe, expect, it } from 'vitest';
import { RECORDING_MAX_BYTES_PER_MINUTE } from '../../../common/api/recordings';
import { int16ToFloat32 } from '../../../dsp/pcm';
import { dominantFrequency } from '../../../../tests/support/dsp/analysis';
import { toneFrames } from '../../../../tests/support/dsp/tone-frames';
import { decodeOggOpus } from '../../../../tests/support/ogg-opus-decode';
import { OggOpusWriter, RECORDING_BITRATE } from './ogg-opus-writer';

function stereoFile(seconds: number) {
  const pages: Buffer[] = [];
  const writer = new OggOpusWriter({ channels: 2, sampleRate: 16_000, bitrate: RECORDING_BITRATE, sink: (page) => pages.push(page) });
  const frames = seconds * 50;
  const left = toneFrames(440, 16_000, frames);
  const right = toneFrames(660, 16_000, frames);
  for (let i = 0; i < frames; i += 1) writer.writeFrame(left[i]!, right[i]!);
  return { pages, writer };
}

function frequency(samples: Int16Array, sampleRate: number) {
  const floats = new Float32Array(samples.length);
  int16ToFloat32(samples, floats);
  return dominantFrequency(floats.subarray(sampleRate / 2), sampleRate, 200, 1000);
}

describe('OggOpusWriter', () => {
  it('writes the headers at once, then a page a second', () => {
    const { pages, writer } = stereoFile(3);
    // OpusHead, OpusTags, then one page per 50 frames.
    expect(pages).toHaveLength(2 + 3);
    expect(writer.durationMs).toBe(3000);
    writer.finish();
    const last = pages.at(-1)!;
    expect(last.toString('ascii', 0, 4)).toBe('OggS');
    expect(last[5]! & 0x04).toBe(0x04);
  });

  it('keeps each channel of a stereo file apart: 440 Hz left, 660 Hz right', () => {
    const { pages, writer } = stereoFile(2);
    writer.finish();
    const decoded = decodeOggOpus(Buffer.concat(pages));
    expect(decoded.sampleRate).toBe(16_000);
    expect(decoded.channels).toHaveLength(2);
    expect(decoded.durationMs).toBeGreaterThan(1900);
    expect(frequency(decoded.channels[0]!, 16_000)).toBeCloseTo(440, -1);
    expect(frequency(decoded.channels[1]!, 16_000)).toBeCloseTo(660, -1);
  });

  it('writes mono at 8 kHz', () => {
    const pages: Buffer[] = [];
    const writer = new OggOpusWriter({ channels: 1, sampleRate: 8_000, bitrate: 16_000, sink: (page) => pages.push(page) });
    for (const frame of toneFrames(440, 8_000, 100)) writer.writeFrame(frame);
    writer.finish();
    const decoded = decodeOggOpus(Buffer.concat(pages));
    expect(decoded.channels).toHaveLength(1);
    expect(frequency(decoded.channels[0]!, 8_000)).toBeCloseTo(440, -1);
  });

  it('leaves a file cut mid-page (a crash) playable up to the cut', () => {
    const { pages } = stereoFile(3);
    const whole = Buffer.concat(pages);
    const cut = whole.subarray(0, whole.length - Math.floor(pages.at(-1)!.length / 2));
    const decoded = decodeOggOpus(cut);
    // The two whole seconds of audio, less the encoder's lookahead.
    expect(decoded.durationMs).toBeGreaterThan(1900);
    expect(decoded.durationMs).toBeLessThanOrEqual(2000);
    expect(frequency(decoded.channels[0]!, 16_000)).toBeCloseTo(440, -1);
  });

  it('keeps a stereo 16 kHz minute within the recording budget', () => {
    const { pages, writer } = stereoFile(60);
    writer.finish();
    const bytes = pages.reduce((sum, page) => sum + page.length, 0);
    expect(bytes).toBeLessThan(RECORDING_MAX_BYTES_PER_MINUTE);
  });

  it('refuses a frame of the wrong length', () => {
    const writer = new OggOpusWriter({ channels: 2, sampleRate: 16_000, bitrate: RECORDING_BITRATE, sink: () => {} });
    expect(() => writer.writeFrame(new Int16Array(320), new Int16Array(160))).toThrow(/second channel of 320 samples/);
  });
});
