import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../../tests/support/dsp/analysis';
import { decodeOggOpus } from '../../../../tests/support/ogg-opus-decode';
import { OPUS_BITRATE, OPUS_SAMPLE_RATE } from '../../../common/media';
import { oggOpusDurationMs } from '../../media/ogg/ogg-duration';
import { OpusFrameEncoder } from '../../media/opus/opus-codec';
import { EncoderProcess } from './encoder-process';

const shared = new EncoderProcess();
afterAll(() => shared.close());

/** 20 ms of a tone at 16 kHz, the `index`th frame of it. */
function toneFrame(hz: number, index: number) {
  const frame = new Int16Array(320);
  for (let i = 0; i < frame.length; i += 1) frame[i] = Math.round(12_000 * Math.sin((2 * Math.PI * hz * (index * 320 + i)) / 16_000));
  return frame;
}

/** A recording of `frames` × 20 ms, 440 Hz on the left and 660 Hz on the right, through `on`. */
async function record(on: EncoderProcess, frames: number) {
  const pages: Uint8Array[] = [];
  const errors: Error[] = [];
  const encoder = on.encoder(
    (bytes) => pages.push(bytes),
    (error) => errors.push(error),
  );
  for (let index = 0; index < frames; index += 1) encoder.writeFrame(toneFrame(440, index), toneFrame(660, index));
  await encoder.finish();
  return { bytes: Buffer.concat(pages), durationMs: encoder.durationMs, errors };
}

/** A process's nice value (Linux: field 19 of /proc/<pid>/stat). */
const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

const toFloat = (samples: Int16Array) => Float32Array.from(samples, (sample) => sample / 32_768);

describe('EncoderProcess', () => {
  it('encodes each recording in its own process into two channels of Ogg Opus, every page in before finish settles', async () => {
    const [one, two] = await Promise.all([record(shared, 250), record(shared, 103)]);
    for (const [recorded, frames] of [[one, 250], [two, 103]] as const) {
      expect(recorded.errors).toEqual([]);
      expect(recorded.durationMs).toBe(frames * 20);
      // The last page is there: the file plays to its end (less the encoder's lookahead).
      expect(oggOpusDurationMs(recorded.bytes)).toBeGreaterThan(frames * 20 - 10);
      const decoded = decodeOggOpus(recorded.bytes);
      expect(decoded.channels).toHaveLength(2);
      expect(dominantFrequency(toFloat(decoded.channels[0]!.subarray(1_600, 3_200)), 16_000)).toBeCloseTo(440, -1);
      expect(dominantFrequency(toFloat(decoded.channels[1]!.subarray(1_600, 3_200)), 16_000)).toBeCloseTo(660, -1);
    }
  });

  it.runIf(process.platform === 'linux')("runs below the calls: its process is niced to 10, the instance's own is not", async () => {
    await record(shared, 10);
    expect(niceOf(shared.pid!)).toBe(10);
    expect(getPriority()).toBe(0);
  });

  it("leaves the instance's own Opus packets intact while it encodes (the binding returns packets through one buffer a process)", async () => {
    const speech = Array.from({ length: 1_500 }, (_, index) => toneFrame(180 + (index % 50) * 7, index));
    const alone = new OpusFrameEncoder(OPUS_SAMPLE_RATE, OPUS_BITRATE);
    const expected = speech.map((frame) => Buffer.from(alone.encode(frame)));
    // Started and warm, so that its encoding and the loop below overlap.
    await record(shared, 10);
    const recording = record(shared, 1_500);
    const live = new OpusFrameEncoder(OPUS_SAMPLE_RATE, OPUS_BITRATE);
    const differing = speech.filter((frame, index) => !Buffer.from(live.encode(frame)).equals(expected[index]!)).length;
    expect((await recording).errors).toEqual([]);
    expect(differing).toBe(0);
  });

  it('gives up the recording that would put the process too far behind, and keeps encoding the others', async () => {
    const bounded = new EncoderProcess(40);
    const frames = Array.from({ length: 100 }, (_, index) => [toneFrame(440, index), toneFrame(660, index)] as const);
    const shed = bounded.encoder(
      () => {},
      () => {},
    );
    // The process has just been started and loads its code first: nothing written in one go is taken yet.
    let written = 0;
    const overflow = () => {
      for (; written < frames.length; written += 1) shed.writeFrame(...frames[written]!);
    };
    expect(overflow).toThrow(/encoder is 40 frames behind: this recording is given up/);
    expect(written).toBe(40);
    // Settles once the process has caught up with what it was sent and let the file go.
    await shed.finish();

    const after = await record(bounded, 30);
    expect(after.errors).toEqual([]);
    expect(oggOpusDurationMs(after.bytes)).toBeGreaterThan(590);
    await bounded.close();
  });

  it('fails the recordings it held when the process stops, and starts another for the next one', async () => {
    const stopping = new EncoderProcess();
    const errors: Error[] = [];
    const held = stopping.encoder(
      () => {},
      (error) => errors.push(error),
    );
    for (let index = 0; index < 30; index += 1) held.writeFrame(toneFrame(440, index), toneFrame(660, index));
    await stopping.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/encoder process stopped/);
    // The recording's end does not wait for a process that is gone.
    await held.finish();

    const next = await record(stopping, 60);
    expect(next.errors).toEqual([]);
    expect(oggOpusDurationMs(next.bytes)).toBeGreaterThan(1_190);
    await stopping.close();
  });
});
