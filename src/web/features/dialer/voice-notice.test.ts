import { describe, expect, it } from 'vitest';
import { activeVoiceLabel } from './voice-notice';

describe('activeVoiceLabel', () => {
  it.each([
    ['the default voice, on any plan', { voiceType: 'normal', pitch: 1, speed: 1 }, 'platinum', null],
    ['a plan not yet known', { voiceType: 'african', pitch: 1, speed: 1 }, undefined, null],
    ['a basic accent on Free', { voiceType: 'african', pitch: 1, speed: 1 }, 'free', null],
    ['pitch off 1 on Free', { voiceType: 'normal', pitch: 1.2, speed: 1 }, 'free', null],
    ['a Platinum accent on Premium', { voiceType: 'russian', pitch: 1, speed: 1 }, 'premium', null],
    ['a basic accent on Premium', { voiceType: 'african', pitch: 1, speed: 1.1 }, 'premium', 'African Accent'],
    ['the normal accent with pitch on Premium', { voiceType: 'normal', pitch: 0.8, speed: 1 }, 'premium', 'Normal Accent'],
    ['a Platinum accent on Platinum', { voiceType: 'middleEastern', pitch: 1, speed: 1 }, 'platinum', 'Middle Eastern Accent'],
  ] as const)('for %s answers %s', (_label, settings, tier, expected) => {
    expect(activeVoiceLabel(settings, tier)).toBe(expected);
  });
});
