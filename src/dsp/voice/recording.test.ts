import { describe, expect, it } from 'vitest';
import { defaultVoiceSettings, type VoiceSettings } from '../../common/voice';
import { harmonicsToNoiseRatio } from '../../../tests/support/dsp/quality';
import { changeRecordedVoice } from './recording';
import { harmonicTone, speechLikeSignal, toInt16 } from '../../../tests/support/dsp/speech-like-signal';
import { pitchOf, soundingStretches, toFloat } from '../../../tests/support/dsp/voice-engine-harness';

const voice = (pitch: number, speed: number): VoiceSettings => ({ voiceType: 'normal', pitch, speed });

describe('changeRecordedVoice', () => {
  const speeds = [0.5, 0.8, 1.25, 2];

  it.each(speeds.flatMap((speed) => [16_000, 8_000].map((rate) => [speed, rate])))('at speed %f lasts exactly length ÷ speed (%i Hz)', (speed, rate) => {
    const recording = toInt16(speechLikeSignal({ sampleRate: rate, seconds: 5 }));
    for (const pitch of [1, 1.5]) {
      expect(changeRecordedVoice(recording, rate, voice(pitch, speed)).length).toBe(Math.round(recording.length / speed));
    }
  });

  it.each(speeds)('at speed %f moves every sound to its time ÷ speed (within 1 percent of the length)', (speed) => {
    const rate = 16_000;
    const recording = new Int16Array(rate * 5);
    const beep = toInt16(harmonicTone({ sampleRate: rate, seconds: 0.3, fundamental: 150 }));
    const starts = [0.5, 2, 3.5].map((seconds) => seconds * rate);
    for (const start of starts) recording.set(beep, start);
    const changed = changeRecordedVoice(recording, rate, voice(1, speed));
    const stretches = soundingStretches(changed, rate);
    expect(stretches).toHaveLength(starts.length);
    stretches.forEach(([begin, end], index) => {
      expect(Math.abs(begin - starts[index]! / speed)).toBeLessThanOrEqual(0.01 * changed.length);
      expect(Math.abs(end - begin - beep.length / speed)).toBeLessThanOrEqual(0.01 * changed.length);
    });
  });

  it.each([0.8, 1.25])('keeps the pitch and a clean voice at speed %f', (speed) => {
    const rate = 16_000;
    const recording = toInt16(harmonicTone({ sampleRate: rate, seconds: 3, fundamental: 150 }));
    const changed = toFloat(changeRecordedVoice(recording, rate, voice(1, speed)));
    const middle = changed.subarray(Math.round(changed.length / 2) - 8192, Math.round(changed.length / 2) + 8192);
    expect(Math.abs(pitchOf(middle, rate) / 150 - 1)).toBeLessThan(0.005);
    expect(harmonicsToNoiseRatio(middle, rate, 150)).toBeGreaterThanOrEqual(30);
  });

  it('changes pitch and speed together', () => {
    const rate = 16_000;
    const recording = toInt16(harmonicTone({ sampleRate: rate, seconds: 3, fundamental: 150 }));
    const changed = toFloat(changeRecordedVoice(recording, rate, voice(1.5, 1.25)));
    expect(Math.abs(pitchOf(changed.subarray(8000, 8000 + 16_384), rate) / 225 - 1)).toBeLessThan(0.005);
  });

  it('returns an untouched copy for the normal voice', () => {
    const recording = toInt16(speechLikeSignal({ sampleRate: 16_000, seconds: 1 }));
    const changed = changeRecordedVoice(recording, 16_000, defaultVoiceSettings);
    expect(changed).toEqual(recording);
    expect(changed).not.toBe(recording);
  });
});
