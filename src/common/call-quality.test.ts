import { describe, expect, it } from 'vitest';
import { callMediaFiguresSchema, rateCallQuality } from './call-quality';

describe('rateCallQuality', () => {
  it.each([
    ['a clean line', { lossShare: 0, jitterMs: 4, roundTripMs: 40 }, 'good'],
    ['1 % loss', { lossShare: 0.01, jitterMs: 4, roundTripMs: 40 }, 'fair'],
    ['30 ms of jitter', { lossShare: 0, jitterMs: 30, roundTripMs: 40 }, 'fair'],
    ['a 300 ms round trip', { lossShare: 0, jitterMs: 4, roundTripMs: 300 }, 'fair'],
    ['5 % loss, at the limit', { lossShare: 0.05, jitterMs: 4, roundTripMs: 40 }, 'fair'],
    ['over 5 % loss', { lossShare: 0.051, jitterMs: 4, roundTripMs: 40 }, 'poor'],
    ['over 80 ms of jitter', { lossShare: 0, jitterMs: 81, roundTripMs: 40 }, 'poor'],
    ['over a 600 ms round trip', { lossShare: 0, jitterMs: 4, roundTripMs: 601 }, 'poor'],
  ] as const)('calls %s %s', (_label, figures, quality) => {
    expect(rateCallQuality(figures)).toBe(quality);
  });

  it('judges only what was measured: the websocket path has no round trip', () => {
    expect(rateCallQuality({ lossShare: 0 })).toBe('good');
    expect(rateCallQuality({ lossShare: 0.2 })).toBe('poor');
    expect(rateCallQuality({})).toBe('good');
  });
});

describe('callMediaFiguresSchema', () => {
  it('names the figure that is wrong', () => {
    const result = callMediaFiguresSchema.safeParse({
      readings: 1,
      codec: null,
      roundTripMs: null,
      jitterMs: { average: 'fast', worst: 1 },
      lossShare: null,
      concealedShare: null,
      voiceDelayMs: { average: 0, worst: 0 },
      quality: 'good',
      worstQuality: 'good',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['jitterMs', 'average']);
  });
});
