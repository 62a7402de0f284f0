import { describe, expect, it } from 'vitest';
import { analyseListener, percentile, type Recording, recoveryMs } from './audio-analysis';
import { talkerSignal } from './test-signal';

const RATE = 16_000;
const START_MS = 1_700_000_000_000;
const SECONDS = 20;
const talker = talkerSignal(3, SECONDS);
const sent: Recording = { startMs: START_MS, sampleRate: RATE, samples: talker };
const options = { maxDelayMs: 1_000 };
// The heard window leaves the sent audio's first second for the delay search to look back into.
const FROM_MS = START_MS + 1_000;
const TO_MS = START_MS + SECONDS * 1_000;

/** The talker as heard `delayMs(t)` later (t in ms from the start), scaled by `gain`. */
function heardAfter(delayMs: (atMs: number) => number, gain = 0.5): Recording {
  const samples = new Float32Array(talker.length);
  for (let i = 0; i < samples.length; i += 1) {
    const from = i - Math.round((delayMs((i * 1000) / RATE) * RATE) / 1000);
    samples[i] = from >= 0 ? gain * talker[from]! : 0;
  }
  return { startMs: START_MS, sampleRate: RATE, samples };
}

/** The same recording with [fromMs, toMs) (from its start) silenced. */
function silenced(recording: Recording, fromMs: number, toMs: number): Recording {
  const samples = recording.samples.slice();
  samples.fill(0, (fromMs * RATE) / 1000, (toMs * RATE) / 1000);
  return { ...recording, samples };
}

/** Where the talker speaks for at least `ms` without a pause, `delayMs` after `afterMs` (both from its start). */
function speechRun(afterMs: number, ms: number, delayMs: number): number {
  const level = (atMs: number) => {
    const from = Math.round(((atMs - delayMs) * RATE) / 1000);
    let sum = 0;
    for (let i = from; i < from + RATE / 100; i += 1) sum += talker[i]! ** 2;
    return Math.sqrt(sum / (RATE / 100));
  };
  for (let at = afterMs; at < SECONDS * 1000 - ms; at += 10) {
    let spoken = true;
    for (let t = at - 30; t < at + ms + 30 && spoken; t += 10) spoken = level(t) > 0.02;
    if (spoken) return at;
  }
  throw new Error('no run of speech that long');
}

describe('analyseListener', () => {
  it('finds a steady delay, no gap and the loudness of what was sent', () => {
    const figures = analyseListener(sent, heardAfter(() => 237), FROM_MS, TO_MS, options);
    expect(figures.delays.length).toBeGreaterThan(60);
    expect(figures.unmatchedAtMs).toEqual([]);
    expect(figures.delayP50Ms).toBeCloseTo(237, -1);
    expect(Math.abs(figures.delayP95Ms! - 237)).toBeLessThan(5);
    expect(figures.longestGapMs).toBe(0);
    expect(figures.heardShare).toBe(1);
    expect(figures.correlation).toBeGreaterThan(0.99);
  });

  it('follows a delay that grows halfway through into its 95th percentile', () => {
    const figures = analyseListener(sent, heardAfter((atMs) => (atMs < 10_000 ? 100 : 400)), FROM_MS, TO_MS, options);
    expect(Math.abs(figures.delayP50Ms! - 100) < 10 || Math.abs(figures.delayP50Ms! - 400) < 10).toBe(true);
    expect(figures.delayP95Ms).toBeCloseTo(400, -1);
    expect(Math.min(...figures.delays.map(({ delayMs }) => delayMs))).toBeCloseTo(100, -1);
    // Each half is compared with the sent audio at its own delay.
    expect(figures.correlation).toBeGreaterThan(0.9);
  });

  it('measures a dropout in the middle of speech as a gap of its length', () => {
    const at = speechRun(8_000, 150, 237);
    const figures = analyseListener(sent, silenced(heardAfter(() => 237), at, at + 150), FROM_MS, TO_MS, options);
    expect(figures.gaps).toHaveLength(1);
    expect(figures.gaps[0]!.startMs).toBeCloseTo(START_MS + at, -2);
    expect(figures.longestGapMs).toBeGreaterThanOrEqual(140);
    expect(figures.longestGapMs).toBeLessThanOrEqual(160);
    expect(figures.heardShare).toBeLessThan(1);
    expect(figures.delayP50Ms).toBeCloseTo(237, -1);
  });

  it('does not count the talker’s own pauses as gaps', () => {
    const figures = analyseListener(sent, heardAfter(() => 600), FROM_MS, TO_MS, options);
    expect(figures.gaps).toEqual([]);
  });

  it('makes no gap of the heard pauses while the delay shrinks, as a jitter buffer that plays its surplus faster does', () => {
    // 150 ms less over 1.5 s: the stretches over the change match at no delay.
    const shrinking = (atMs: number) => 400 - 150 * Math.min(1, Math.max(0, (atMs - 9_000) / 1_500));
    const figures = analyseListener(sent, heardAfter(shrinking), FROM_MS, TO_MS, options);
    expect(figures.unmatchedAtMs.length).toBeGreaterThan(0);
    expect(figures.gaps).toEqual([]);
    expect(figures.heardShare).toBe(1);
  });

  it('counts audio that has nothing of the sent audio as not heard at all', () => {
    const other = talkerSignal(9, SECONDS);
    for (const samples of [new Float32Array(talker.length), other]) {
      const figures = analyseListener(sent, { startMs: START_MS, sampleRate: RATE, samples }, FROM_MS, TO_MS, options);
      expect(figures.delays.length).toBeLessThan(5);
      expect(figures.unmatchedAtMs.length).toBeGreaterThan(60);
    }
    const silent = analyseListener(sent, { startMs: START_MS, sampleRate: RATE, samples: new Float32Array(talker.length) }, FROM_MS, TO_MS, options);
    expect(silent).toMatchObject({ delayP50Ms: null, correlation: null, heardShare: 0, longestGapMs: TO_MS - FROM_MS });
  });

  it('correlates loudness lower when the heard audio keeps dropping out', () => {
    let heard = heardAfter(() => 237);
    for (let at = 2_000; at < SECONDS * 1000; at += 700) heard = silenced(heard, at, at + 250);
    const figures = analyseListener(sent, heard, FROM_MS, TO_MS, options);
    expect(figures.correlation).toBeLessThan(0.8);
    expect(figures.longestGapMs).toBeGreaterThanOrEqual(200);
  });
});

describe('recoveryMs', () => {
  const switchMs = START_MS + 10_000;
  const settings = { delay: { normalMs: 237, toleranceMs: 50 }, settledMs: 2_000 };

  it('is 0 when nothing is off after the switch', () => {
    const figures = analyseListener(sent, heardAfter(() => 237), FROM_MS, TO_MS, options);
    expect(recoveryMs(figures, switchMs, TO_MS, settings)).toBe(0);
  });

  it('runs to the end of the last gap, or of the last stretch heard late', () => {
    const at = speechRun(11_000, 100, 237);
    const gapped = analyseListener(sent, silenced(heardAfter(() => 237), at, at + 100), FROM_MS, TO_MS, options);
    expect(recoveryMs(gapped, switchMs, TO_MS, settings)).toBeCloseTo(at + 100 - 10_000, -2);

    const late = analyseListener(sent, heardAfter((t) => (t < 12_000 ? 500 : 237)), FROM_MS, TO_MS, options);
    const recovered = recoveryMs(late, switchMs, TO_MS, settings)!;
    expect(recovered).toBeGreaterThan(1_000);
    expect(recovered).toBeLessThan(3_000);
    // Heard late, but heard: nothing was missing.
    expect(recoveryMs(late, switchMs, TO_MS, { ...settings, delay: null })).toBe(0);
  });

  it('is null when the audio is still off near the end', () => {
    const figures = analyseListener(sent, heardAfter((t) => (t < 19_000 ? 237 : 800)), FROM_MS, TO_MS, options);
    expect(recoveryMs(figures, switchMs, TO_MS, settings)).toBeNull();
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 0.95)).toBe(95);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});
