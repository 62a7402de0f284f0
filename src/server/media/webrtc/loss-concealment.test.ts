import { describe, expect, it } from 'vitest';
import { dominantFrequency, rms } from '../../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../../tests/support/dsp/tone-frames';
import { LossConcealment } from './loss-concealment';

/** toneFrames' half-scale sine: its largest step between two samples at 440 Hz and 16 kHz. */
const LARGEST_TONE_STEP = 16_384 * 2 * Math.sin((Math.PI * 440) / 16_000);

function largestStep(samples: Int16Array): number {
  let largest = 0;
  for (let i = 1; i < samples.length; i += 1) largest = Math.max(largest, Math.abs(samples[i]! - samples[i - 1]!));
  return largest;
}

const joined = (...frames: Int16Array[]) => Int16Array.from(frames.flatMap((frame) => Array.from(frame)));

/** A concealment that has heard `count` frames of a 440 Hz tone, and the frames that would have come next. */
function afterTone(count: number) {
  const frames = toneFrames(440, 16_000, count + 10);
  const concealment = new LossConcealment(16_000);
  for (const frame of frames.slice(0, count)) concealment.play(frame.slice());
  return { concealment, heard: frames.slice(0, count), next: frames.slice(count) };
}

describe('LossConcealment', () => {
  it('carries on the tone it heard, without a jump where the loss begins', () => {
    const { concealment, heard } = afterTone(5);
    const made = concealment.conceal().slice();
    expect(dominantFrequency(joinFrames([made]), 16_000, 300, 600)).toBeCloseTo(440, -1);
    expect(largestStep(joined(heard.at(-1)!, made))).toBeLessThan(1.2 * LARGEST_TONE_STEP);
  });

  it('holds the level for 10 ms, then fades smoothly to silence by 60 ms', () => {
    const { concealment, heard } = afterTone(5);
    const made = Array.from({ length: 5 }, () => concealment.conceal().slice());
    const level = rms(joinFrames([heard[0]!]));
    expect(rms(joinFrames([made[0]!.subarray(0, 160)]))).toBeGreaterThan(0.95 * level);
    expect(rms(joinFrames([made[1]!]))).toBeLessThan(rms(joinFrames([made[0]!])));
    expect(rms(joinFrames([made[2]!]))).toBeLessThan(rms(joinFrames([made[1]!])));
    expect(made[2]!.subarray(0, 10).some((sample) => sample !== 0)).toBe(true);
    expect(Array.from(made[3]!).every((sample) => sample === 0)).toBe(true);
    expect(Array.from(made[4]!).every((sample) => sample === 0)).toBe(true);
    expect(largestStep(joined(heard.at(-1)!, ...made))).toBeLessThan(1.2 * LARGEST_TONE_STEP);
  });

  it('blends the audio that returns into the concealment, out of step with it as it may be', () => {
    const { concealment, next } = afterTone(5);
    const made = concealment.conceal().slice();
    // A tone half a period out of step with the one concealed: joined as it is, a jump of the full swing.
    const returning = next[1]!.map((sample) => -sample);
    const played = returning.slice();
    concealment.play(played);
    expect(largestStep(joined(made, returning))).toBeGreaterThan(3 * LARGEST_TONE_STEP);
    expect(largestStep(joined(made, played))).toBeLessThan(1.5 * LARGEST_TONE_STEP);
    expect(Array.from(played.subarray(80))).toEqual(Array.from(returning.subarray(80)));
  });

  it('lets the audio that follows a silence rise out of it over 5 ms', () => {
    const { concealment, next } = afterTone(5);
    concealment.silence();
    const played = next[0]!.slice();
    concealment.play(played);
    expect(Math.abs(played[0]!)).toBeLessThan(0.02 * 16_384);
    expect(largestStep(played)).toBeLessThanOrEqual(LARGEST_TONE_STEP + 1);
    expect(Array.from(played.subarray(80))).toEqual(Array.from(next[0]!.subarray(80)));
  });

  it('leaves a frame untouched when nothing was lost before it', () => {
    const { concealment, next } = afterTone(3);
    const played = next[0]!.slice();
    concealment.play(played);
    expect(Array.from(played)).toEqual(Array.from(next[0]!));
  });

  it('makes silence when it has heard nothing, and works at 8 kHz', () => {
    expect(Array.from(new LossConcealment(16_000).conceal()).every((sample) => sample === 0)).toBe(true);
    const narrow = new LossConcealment(8_000);
    for (const frame of toneFrames(300, 8_000, 3)) narrow.play(frame.slice());
    const made = narrow.conceal();
    expect(made).toHaveLength(160);
    expect(dominantFrequency(joinFrames([made]), 8_000, 200, 400)).toBeCloseTo(300, -1);
  });
});
