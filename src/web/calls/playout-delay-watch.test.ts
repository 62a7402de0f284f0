import { describe, expect, it } from 'vitest';
import { PlayoutDelayWatch, readPlayout, type PlayoutReading } from './playout-delay-watch';

/** Readings a second apart, each second's samples (16 kHz) having waited `bufferedMs` in the buffer. */
function readings(seconds: { bufferedMs: number; jitterMs?: number; lost?: number; ssrc?: number }[]): PlayoutReading[] {
  let delay = 0;
  let emitted = 0;
  let lost = 0;
  return seconds.map(({ bufferedMs, jitterMs = 2, lost: lostNow = 0, ssrc = 1 }, index) => {
    emitted += 16_000;
    delay += (16_000 * bufferedMs) / 1000;
    lost += lostNow;
    return { at: index * 1000, ssrc, jitterBufferDelay: delay, jitterBufferEmittedCount: emitted, jitter: jitterMs / 1000, packetsLost: lost };
  });
}

const asked = (watch: PlayoutDelayWatch, all: PlayoutReading[]) => all.map((reading) => watch.add(reading));

describe('PlayoutDelayWatch', () => {
  it('asks once the link is clean again while the buffer still holds what the bad stretch needed', () => {
    const watch = new PlayoutDelayWatch();
    const bad = { bufferedMs: 420, jitterMs: 45, lost: 4 };
    expect(asked(watch, readings([{ bufferedMs: 60 }, { bufferedMs: 60 }, bad, bad, bad, { bufferedMs: 410 }, { bufferedMs: 400 }]))).toEqual([null, null, null, null, null, 410, null]);
  });

  it('does not ask on a clean link, on a link that still loses or jitters, or for a buffer its jitter explains', () => {
    expect(asked(new PlayoutDelayWatch(), readings(Array(5).fill({ bufferedMs: 70 })))).toEqual(Array(5).fill(null));
    expect(asked(new PlayoutDelayWatch(), readings(Array(5).fill({ bufferedMs: 400, lost: 1 })))).toEqual(Array(5).fill(null));
    expect(asked(new PlayoutDelayWatch(), readings(Array(5).fill({ bufferedMs: 400, jitterMs: 30 })))).toEqual(Array(5).fill(null));
    // 12 ms of jitter needs 88 ms: 220 ms is within 150 of it.
    expect(asked(new PlayoutDelayWatch(), readings(Array(5).fill({ bufferedMs: 220, jitterMs: 12 })))).toEqual(Array(5).fill(null));
  });

  it('asks again only after 10 s, and compares nothing across a new stream', () => {
    const late = { bufferedMs: 400 };
    const answers = asked(new PlayoutDelayWatch(), readings([late, late, late, late, late, late, late, late, late, late, late, late, late]));
    expect(answers.flatMap((answer, second) => (answer === null ? [] : [second]))).toEqual([1, 11]);

    const restarted = readings([{ bufferedMs: 60 }, { bufferedMs: 400 }]);
    // The new stream's counts start again from nothing: a difference with the old one's means nothing.
    const fresh: PlayoutReading = { at: 2000, ssrc: 2, jitterBufferDelay: 0.5, jitterBufferEmittedCount: 16_000, jitter: 0.001, packetsLost: 0 };
    const watch = new PlayoutDelayWatch();
    expect(asked(watch, [restarted[0]!, fresh])).toEqual([null, null]);
  });
});

describe('readPlayout', () => {
  it('reads the audio received from a stats report, and nothing from one without it', () => {
    const inbound = { type: 'inbound-rtp', kind: 'audio', ssrc: 7, jitterBufferDelay: 1.5, jitterBufferEmittedCount: 32_000, jitter: 0.004, packetsLost: 2 };
    const report = new Map<string, object>([['in', inbound], ['out', { type: 'outbound-rtp', kind: 'audio' }]]) as unknown as RTCStatsReport;
    expect(readPlayout(report, 5)).toEqual({ at: 5, ssrc: 7, jitterBufferDelay: 1.5, jitterBufferEmittedCount: 32_000, jitter: 0.004, packetsLost: 2 });
    expect(readPlayout(new Map([['out', { type: 'outbound-rtp', kind: 'audio' }]]) as unknown as RTCStatsReport, 5)).toBeNull();
  });
});
