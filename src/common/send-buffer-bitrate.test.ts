import { describe, expect, it } from 'vitest';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE, OPUS_MIN_BITRATE } from './media';
import { SendBufferBitrate } from './send-buffer-bitrate';

/** The bitrates answered as `frames` frames go out with `buffered` bytes waiting each time. */
function run(adaptation: SendBufferBitrate, frames: number, buffered: number): number[] {
  return Array.from({ length: frames }, () => adaptation.observe(buffered));
}

describe('SendBufferBitrate', () => {
  it('keeps its ceiling while the buffer holds up to 100 ms of audio', () => {
    const adaptation = new SendBufferBitrate(OPUS_BITRATE);
    expect(new Set(run(adaptation, 500, 400))).toEqual(new Set([OPUS_BITRATE]));
  });

  it('steps down by a quarter at once, then at most every half second, to no less than 12 kbit/s', () => {
    const adaptation = new SendBufferBitrate(OPUS_BITRATE);
    const rates = run(adaptation, 101, 10_000);
    expect(rates[0]).toBe(24_000);
    expect(rates.indexOf(18_000)).toBe(25);
    expect(rates.indexOf(13_500)).toBe(50);
    expect(rates.indexOf(OPUS_MIN_BITRATE)).toBe(75);
    expect(rates.at(-1)).toBe(OPUS_MIN_BITRATE);
  });

  it('judges the backlog by the rate of the moment: 100 ms at 24 kbit/s is 300 bytes', () => {
    const adaptation = new SendBufferBitrate(OPUS_BITRATE);
    adaptation.observe(401);
    expect(run(adaptation, 30, 300).at(-1)).toBe(24_000);
    expect(adaptation.observe(301)).toBe(18_000);
  });

  it('steps back up, a step per 3 s of an empty buffer, to its ceiling and no further', () => {
    const adaptation = new SendBufferBitrate(OPUS_LOW_DATA_BITRATE);
    run(adaptation, 26, 10_000);
    expect(adaptation.observe(10_000)).toBe(OPUS_MIN_BITRATE);
    expect(run(adaptation, 149, 0).at(-1)).toBe(OPUS_MIN_BITRATE);
    expect(adaptation.observe(0)).toBe(OPUS_LOW_DATA_BITRATE);
    expect(new Set(run(adaptation, 1_000, 0))).toEqual(new Set([OPUS_LOW_DATA_BITRATE]));
  });

  it('starts counting the empty buffer again whenever something waits in it', () => {
    const adaptation = new SendBufferBitrate(OPUS_BITRATE);
    adaptation.observe(10_000);
    run(adaptation, 149, 0);
    adaptation.observe(1);
    expect(run(adaptation, 149, 0).at(-1)).toBe(24_000);
    expect(adaptation.observe(0)).toBe(OPUS_BITRATE);
  });
});
