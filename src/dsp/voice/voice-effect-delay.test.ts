import { describe, expect, it } from 'vitest';
import { VOICE_EFFECT_DELAY_MS } from '../../common/call-quality';
import { VoiceEngine } from './voice-engine';

describe('VOICE_EFFECT_DELAY_MS', () => {
  it.each([16_000, 8_000] as const)('is the delay the engine adds with an effect on at %i Hz, to the millisecond', (sampleRate) => {
    const engine = new VoiceEngine(sampleRate, { voiceType: 'normal', pitch: 1.5, speed: 1 });
    expect(Math.round((engine.effectLatencySamples / sampleRate) * 1000)).toBe(VOICE_EFFECT_DELAY_MS);
  });
});
