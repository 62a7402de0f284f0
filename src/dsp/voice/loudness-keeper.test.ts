import { describe, expect, it } from 'vitest';
import { LoudnessKeeper } from './loudness-keeper';
import { SampleHistory } from './sample-history';

const RATE = 16_000;
const BLOCK = 320;
/** Two blocks' worth of input per grain, as a pitch of 0.5 moves through it. */
const GRAIN_STEP = 2 * BLOCK;
const PERIOD = 64;

function sineHistory(length: number): SampleHistory {
  const history = new SampleHistory(length);
  const samples = Int16Array.from({ length }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * i) / PERIOD)));
  history.writeInt16(samples);
  return history;
}

function rms(block: Float32Array): number {
  return Math.sqrt(block.reduce((sum, value) => sum + value * value, 0) / block.length);
}

describe('LoudnessKeeper', () => {
  it('keeps the level when every other block moves through no input, as at a lowered pitch', () => {
    const history = sineHistory(1 << 16);
    const keeper = new LoudnessKeeper(RATE);
    const level = 10_000 / 32_768 / Math.SQRT2;
    let analysis = PERIOD / 4;
    let last = new Float32Array(BLOCK);
    for (let block = 0; block < 80; block += 1) {
      // Output as loud as the input; the input moves by a grain only every other block, and where
      // it does not, the block starts on the sine's peak, the sample that used to stand for it.
      const out = Float32Array.from({ length: BLOCK }, (_, i) => level * Math.SQRT2 * Math.sin((2 * Math.PI * i) / PERIOD));
      const step = block % 2 === 0 ? GRAIN_STEP : 0;
      keeper.process(out, BLOCK, history, analysis, analysis + step);
      analysis += step;
      last = out;
    }
    expect(rms(last) / level).toBeCloseTo(1, 1);
  });

  it('still follows a quieter output up to the input level', () => {
    const history = sineHistory(1 << 16);
    const keeper = new LoudnessKeeper(RATE);
    const level = 10_000 / 32_768 / Math.SQRT2;
    let last = new Float32Array(BLOCK);
    for (let block = 0; block < 80; block += 1) {
      const out = Float32Array.from({ length: BLOCK }, (_, i) => 0.7 * level * Math.SQRT2 * Math.sin((2 * Math.PI * i) / PERIOD));
      keeper.process(out, BLOCK, history, block * BLOCK, (block + 1) * BLOCK);
      last = out;
    }
    expect(rms(last) / level).toBeCloseTo(1, 1);
  });
});
