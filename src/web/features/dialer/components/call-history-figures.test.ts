import { describe, expect, it } from 'vitest';
import { describeMediaFigures } from './call-history-figures';

describe('describeMediaFigures', () => {
  it('gives each figure as its average and worst, and the worst quality when it differs', () => {
    expect(
      describeMediaFigures({
        readings: 30,
        codec: 'Opus',
        roundTripMs: { average: 41.6, worst: 90 },
        jitterMs: { average: 3.2, worst: 8 },
        lossShare: { average: 0.001, worst: 0.06 },
        concealedShare: { average: 0.004, worst: 0.02 },
        voiceDelayMs: { average: 29, worst: 29 },
        quality: 'good',
        worstQuality: 'poor',
      }),
    ).toBe(
      'Quality: Good (at worst Poor) · Opus · round trip 42 ms (worst 90 ms) · jitter 3 ms (worst 8 ms) · loss 0.1 % (worst 6.0 %) · concealed 0.4 % (worst 2.0 %) · voice changer 29 ms (worst 29 ms)',
    );
  });

  it('leaves out what the websocket path cannot measure, and a voice changer that added nothing', () => {
    expect(
      describeMediaFigures({
        readings: 5,
        codec: 'PCM',
        roundTripMs: null,
        jitterMs: null,
        lossShare: { average: 0, worst: 0 },
        concealedShare: null,
        voiceDelayMs: { average: 0, worst: 0 },
        quality: 'good',
        worstQuality: 'good',
      }),
    ).toBe('Quality: Good · PCM · loss 0.0 % (worst 0.0 %)');
  });
});
