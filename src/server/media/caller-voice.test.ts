import { describe, expect, it, vi } from 'vitest';
import { dominantFrequency, sine } from '../../../tests/support/dsp/analysis';
import { float32ToInt16 } from '../../dsp/pcm';
import { CallerVoice } from './caller-voice';

const normal = { voiceType: 'normal' as const, pitch: 1, speed: 1 };
const higher = { voiceType: 'normal' as const, pitch: 1.5, speed: 1 };

/** 2 s of a 200 Hz tone in 20 ms frames at 16 kHz. */
function toneFrames(count = 100) {
  const tone = float32ToInt16(sine(200, 16_000, 320 * count, 0.5));
  return Array.from({ length: count }, (_, i) => tone.subarray(i * 320, (i + 1) * 320));
}

function run(voice: CallerVoice, frames: Int16Array[]) {
  const out = new Float32Array(frames.length * 320);
  frames.forEach((frame, i) => {
    const changed = voice.apply(frame);
    for (let j = 0; j < 320; j += 1) out[i * 320 + j] = changed[j]! / 32768;
  });
  return out;
}

describe('CallerVoice', () => {
  it('passes the normal voice through unchanged', () => {
    const frames = toneFrames(10);
    const voice = new CallerVoice(16_000, normal, vi.fn());
    frames.forEach((frame) => expect(Array.from(voice.apply(frame))).toEqual(Array.from(frame)));
  });

  it('changes the pitch the caller chose, and takes new settings during the call', () => {
    const voice = new CallerVoice(16_000, higher, vi.fn());
    const raised = run(voice, toneFrames());
    expect(dominantFrequency(raised.subarray(16_000), 16_000)).toBeCloseTo(300, -0.5);
    voice.update(normal);
    const back = run(voice, toneFrames());
    expect(dominantFrequency(back.subarray(16_000), 16_000)).toBeCloseTo(200, -0.5);
  });

  it('sends silence, never the voice, once the engine fails with an effect on, and says so once', () => {
    const onFailure = vi.fn();
    const voice = new CallerVoice(16_000, higher, onFailure);
    const broken = new Int16Array(100).fill(12_000);
    expect(voice.apply(broken).every((sample) => sample === 0)).toBe(true);
    const [good] = toneFrames(1);
    expect(voice.apply(good!).every((sample) => sample === 0)).toBe(true);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0]![0]).toMatch(/hears silence instead of your own voice/);
    // New settings give it another chance.
    voice.update(higher);
    expect(toneFrames(5).map((frame) => voice.apply(frame)).at(-1)!.some((sample) => sample !== 0)).toBe(true);
  });

  it("tells frameTimes the engine's time on every frame, in seconds", () => {
    let clock = 0;
    const observed: number[] = [];
    const voice = new CallerVoice(16_000, higher, vi.fn(), { now: () => (clock += 0.5), frameTimes: { observe: (seconds) => observed.push(seconds) } });
    toneFrames(3).forEach((frame) => voice.apply(frame));
    expect(observed).toEqual([0.0005, 0.0005, 0.0005]);
  });

  it('sends silence once the engine keeps falling behind real time', () => {
    let clock = 0;
    const onFailure = vi.fn();
    // Every frame appears to take 25 ms, longer than the 20 ms it lasts.
    const voice = new CallerVoice(16_000, higher, onFailure, { now: () => (clock += 25) });
    const outputs = toneFrames(6).map((frame) => voice.apply(frame).slice());
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(outputs[5]!.every((sample) => sample === 0)).toBe(true);
    expect(outputs[4]!.every((sample) => sample === 0)).toBe(true);
  });
});
