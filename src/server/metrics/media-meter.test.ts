import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MediaMetrics, StreamMeter } from './media-meter';

/** A meter whose jitter observations are kept, in seconds. */
function meterWithJitter() {
  const observed: number[] = [];
  return { meter: new StreamMeter(undefined, (seconds) => observed.push(seconds)), observed };
}

describe('StreamMeter', () => {
  it('observes no jitter for frames arriving every 20 ms, once a second', () => {
    const { meter, observed } = meterWithJitter();
    for (let i = 0; i < 100; i += 1) meter.frameIn(1, 1000 + i * 20);
    expect(observed).toEqual([0, 0]);
  });

  it('tends to the mean deviation from 20 ms when arrivals alternate 10 ms and 30 ms apart', () => {
    const { meter, observed } = meterWithJitter();
    let at = 0;
    for (let i = 0; i < 200; i += 1) meter.frameIn(1, (at += i % 2 === 0 ? 10 : 30));
    expect(observed).toHaveLength(4);
    expect(observed.at(-1)!).toBeCloseTo(0.01, 4);
  });

  it('expects a gap where packets were lost, and starts afresh where the spacing is unknown', () => {
    const { meter, observed } = meterWithJitter();
    let at = 0;
    for (let i = 0; i < 50; i += 1) {
      // Every fifth packet is lost: the next arrives two periods later, as its sequence number says.
      const spacing = i % 5 === 4 ? 2 : 1;
      meter.frameIn(i === 25 ? 0 : spacing, (at += i === 25 ? 5_000 : spacing * 20));
    }
    expect(observed).toEqual([0]);
  });

  it('counts frames in, out and made up into the tally of its transport', async () => {
    const registry = new Registry();
    const media = new MediaMetrics(new Histogram({ name: 'jitter_seconds', help: 'Jitter', labelNames: ['transport'], registers: [registry] }));
    const first = media.stream('webrtc');
    const second = media.stream('webrtc');
    const other = media.stream('vonage');
    first.frameIn();
    second.frameIn();
    second.frameOut();
    second.concealed();
    other.frameOut();
    expect(media.totals().get('webrtc')).toEqual({ framesIn: 2, framesOut: 1, concealed: 1 });
    expect(media.totals().get('vonage')).toEqual({ framesIn: 0, framesOut: 1, concealed: 0 });
    expect(media.totals().get('relay')).toEqual({ framesIn: 0, framesOut: 0, concealed: 0 });
  });
});
