import { describe, expect, it } from 'vitest';
import { voiceTypes, type VoiceSettings, type VoiceType } from '../../common/voice';
import { checkAgainstPlan } from './service';

const normal: VoiceSettings = { voiceType: 'normal', pitch: 1, speed: 1 };
const accent = (voiceType: VoiceType): VoiceSettings => ({ voiceType, pitch: 1, speed: 1 });
const basic: VoiceType[] = ['normal', 'caucasian', 'european', 'hispanic', 'african'];
const platinumOnly: VoiceType[] = ['russian', 'chinese', 'indian', 'middleEastern'];

describe('checkAgainstPlan', () => {
  it('lets every plan use the normal voice', () => {
    for (const tier of ['free', 'premium', 'platinum'] as const) expect(checkAgainstPlan(normal, tier)).toEqual({ effective: normal, refusal: null });
  });

  it('keeps Free to the normal voice: a basic accent or a moved slider needs Premium', () => {
    expect(checkAgainstPlan(accent('european'), 'free')).toEqual({ effective: normal, refusal: 'Voice changer needs Premium' });
    expect(checkAgainstPlan({ ...normal, pitch: 1.5 }, 'free')).toEqual({ effective: normal, refusal: 'Voice changer needs Premium' });
    expect(checkAgainstPlan({ ...normal, speed: 0.8 }, 'free')).toEqual({ effective: normal, refusal: 'Voice changer needs Premium' });
  });

  it('names Platinum for an accent only Platinum has, on any plan below it', () => {
    expect(checkAgainstPlan({ voiceType: 'russian', pitch: 1.5, speed: 1 }, 'free').refusal).toBe('This accent needs Platinum');
    for (const voiceType of platinumOnly) expect(checkAgainstPlan(accent(voiceType), 'premium')).toEqual({ effective: normal, refusal: 'This accent needs Platinum' });
  });

  it('gives Premium the basic accents with pitch and speed', () => {
    for (const voiceType of basic) {
      const settings = { voiceType, pitch: 0.5, speed: 2 };
      expect(checkAgainstPlan(settings, 'premium')).toEqual({ effective: settings, refusal: null });
    }
  });

  it('gives Platinum all nine accents with pitch and speed', () => {
    for (const voiceType of voiceTypes) {
      const settings = { voiceType, pitch: 1.5, speed: 0.7 };
      expect(checkAgainstPlan(settings, 'platinum')).toEqual({ effective: settings, refusal: null });
    }
  });
});
