import { describe, expect, it } from 'vitest';
import { roundToVoiceStep, VOICE_RANGE } from './voice';

describe('roundToVoiceStep', () => {
  it('lands a slider value on the step, whatever floating point made of it', () => {
    expect(roundToVoiceStep(0.1 + 0.2)).toBe(0.3);
    expect(roundToVoiceStep(1.1 * 3)).toBe(3.3);
    expect(roundToVoiceStep(VOICE_RANGE.min)).toBe(0.5);
    expect(roundToVoiceStep(VOICE_RANGE.max)).toBe(2);
  });

  it('takes a value between steps to the nearest one', () => {
    expect(roundToVoiceStep(1.04)).toBe(1);
    expect(roundToVoiceStep(1.06)).toBe(1.1);
  });
});
