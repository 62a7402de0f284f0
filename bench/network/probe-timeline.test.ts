import { describe, expect, it } from 'vitest';
import { PROBE_RATE } from './audio-probes';
import { timeline } from './probe-timeline';

const T0 = 1_700_000_000_000;

describe('timeline', () => {
  it('places each chunk at its wall time, silence where nothing was recorded', () => {
    // Recorder index 0 was at T0 − 1 s: index 16,000 is at T0, index 16,160 10 ms later.
    const recording = timeline(
      [{ kind: 'played', offsetMs: T0 - 1000, chunks: [{ index: PROBE_RATE, pcm: Int16Array.of(16384, 16384) }, { index: PROBE_RATE + 160, pcm: Int16Array.of(-32768) }] }],
      'played',
      T0,
      T0 + 20,
    );
    expect(recording).toMatchObject({ startMs: T0, sampleRate: PROBE_RATE });
    expect(recording.samples).toHaveLength(320);
    expect(Array.from(recording.samples.subarray(0, 3))).toEqual([0.5, 0.5, 0]);
    expect(recording.samples[160]).toBe(-1);
    expect(recording.samples.reduce((sum, value) => sum + Math.abs(value), 0)).toBe(2);
  });

  it('adds recorders of the kind asked for that overlap, and leaves out what falls outside', () => {
    const recording = timeline(
      [
        { kind: 'sent', offsetMs: T0, chunks: [{ index: 0, pcm: Int16Array.of(8192, 8192, 8192) }] },
        { kind: 'sent', offsetMs: T0 + 0.0625, chunks: [{ index: 0, pcm: Int16Array.of(8192, 8192) }] },
        { kind: 'played', offsetMs: T0, chunks: [{ index: 0, pcm: Int16Array.of(32767) }] },
      ],
      'sent',
      T0 + 0.0625,
      T0 + 0.125,
    );
    expect(Array.from(recording.samples)).toEqual([0.5]);
  });
});
