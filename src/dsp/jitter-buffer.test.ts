import { describe, expect, it } from 'vitest';
import { JitterBuffer } from './jitter-buffer';

const FRAME = 320;
const frame = (value: number) => new Float32Array(FRAME).fill(value);

describe('JitterBuffer', () => {
  it('waits for about 60 ms (3 frames) before it plays', () => {
    const buffer = new JitterBuffer({ frameSamples: FRAME });
    const out = new Float32Array(FRAME);
    buffer.push(frame(0.1));
    buffer.push(frame(0.2));
    expect(buffer.pull(out)).toBe('silence');
    buffer.push(frame(0.3));
    expect(buffer.pull(out)).toBe('audio');
    expect(out[FRAME - 1]).toBeCloseTo(0.1);
  });

  it('hides a missing frame by fading the last one out, without a jump, and raises its target', () => {
    const buffer = new JitterBuffer({ frameSamples: FRAME });
    const out = new Float32Array(FRAME);
    for (let i = 0; i < 3; i += 1) buffer.push(frame(0.5));
    for (let i = 0; i < 3; i += 1) buffer.pull(out);
    const last = out[FRAME - 1]!;
    expect(buffer.pull(out)).toBe('concealed');
    expect(Math.abs(out[0]! - last)).toBeLessThan(0.01);
    expect(Math.abs(out[FRAME - 1]!)).toBeLessThan(0.5);
    for (let i = 1; i < FRAME; i += 1) expect(Math.abs(out[i]! - out[i - 1]!)).toBeLessThan(0.01);
    expect(buffer.getStats()).toMatchObject({ targetFrames: 4, concealed: 1 });
  });

  it('goes quiet and buffers again after a long gap', () => {
    const buffer = new JitterBuffer({ frameSamples: FRAME });
    const out = new Float32Array(FRAME);
    for (let i = 0; i < 3; i += 1) buffer.push(frame(0.5));
    for (let i = 0; i < 3; i += 1) buffer.pull(out);
    const results = Array.from({ length: 5 }, () => buffer.pull(out));
    expect(results).toEqual(['concealed', 'concealed', 'concealed', 'silence', 'silence']);
    buffer.push(frame(0.5));
    expect(buffer.pull(out)).toBe('silence');
  });

  it('drops a frame to catch up when audio keeps piling up beyond the target', () => {
    const buffer = new JitterBuffer({ frameSamples: FRAME, catchUpAfter: 10 });
    const out = new Float32Array(FRAME);
    for (let i = 0; i < 8; i += 1) buffer.push(frame(0.1));
    for (let i = 0; i < 20; i += 1) {
      buffer.push(frame(0.1));
      buffer.pull(out);
    }
    expect(buffer.getStats().dropped).toBeGreaterThan(0);
    expect(buffer.getStats().queuedFrames).toBeLessThan(8);
  });

  it('ignores a frame of the wrong size', () => {
    const buffer = new JitterBuffer({ frameSamples: FRAME });
    buffer.push(new Float32Array(100));
    expect(buffer.getStats().queuedFrames).toBe(0);
  });
});
