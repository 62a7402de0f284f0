import { describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { announcementSound, BEEP_HZ, RecordingAnnouncement } from './recording-announcement';
import { StereoFrames } from './stereo-frames';

describe('StereoFrames', () => {
  it('pairs the two channels frame by frame, converting an 8 kHz side to 16 kHz', () => {
    const written: { left: number; right: number; length: number }[] = [];
    const stereo = new StereoFrames(16_000, 8_000, (left, right) => written.push({ left: left[100]!, right: right[100]!, length: right.length }));
    for (let i = 0; i < 5; i += 1) {
      stereo.addLeft(new Int16Array(320).fill(1_000));
      stereo.addRight(new Int16Array(160).fill(2_000));
    }
    // The resampler's first frame starts from silence; the rest carry the level through.
    expect(written.length).toBeGreaterThanOrEqual(4);
    expect(written.every((frame) => frame.length === 320 && frame.left === 1_000)).toBe(true);
    expect(written.at(-1)!.right).toBeCloseTo(2_000, -1);
  });

  it('writes a side that stopped sending as silence, ten frames on, so the file goes on', () => {
    const written: number[] = [];
    const stereo = new StereoFrames(16_000, 16_000, (_left, right) => written.push(right[0]!));
    for (let i = 0; i < 9; i += 1) stereo.addLeft(new Int16Array(320).fill(1));
    expect(written).toHaveLength(0);
    stereo.addLeft(new Int16Array(320).fill(1));
    expect(written).toEqual([0]);
  });
});

describe('the recording announcement', () => {
  it('is two 1,400 Hz beeps, then the spoken notice on calls with an outside number', () => {
    const beeps = announcementSound(16_000, false);
    const withNotice = announcementSound(8_000, true);
    expect(beeps.length).toBe(16_000 * 0.6);
    expect(dominantFrequency(Float32Array.from(beeps.subarray(0, 3_200), (s) => s / 32768), 16_000)).toBeCloseTo(BEEP_HZ, -1);
    // About 1.5 s of speech at 8 kHz after the beeps and a pause.
    expect(withNotice.length).toBeGreaterThan(8_000 * (0.9 + 1.2));
  });

  it('is mixed over the voice once, then lets the frames through untouched', () => {
    const sound = new Int16Array(480).fill(10);
    const announcement = new RecordingAnnouncement(sound);
    const voice = new Int16Array(320).fill(100);
    expect(announcement.apply(voice)[0]).toBe(110);
    const second = announcement.apply(voice);
    expect([second[159], second[160]]).toEqual([110, 100]);
    expect(announcement.done).toBe(true);
    expect(announcement.apply(voice)).toBe(voice);
  });
});
