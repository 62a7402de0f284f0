import { describe, expect, it } from 'vitest';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE, OPUS_MIN_BITRATE } from '../../../common/media';
import { bitrateAfterReport } from './send-bitrate';

describe('bitrateAfterReport', () => {
  it('steps down while a tenth or more of the packets are lost, to the floor and no lower', () => {
    let bitrate = OPUS_BITRATE;
    const steps: number[] = [];
    for (let i = 0; i < 6; i += 1) steps.push((bitrate = bitrateAfterReport(bitrate, 0.15, OPUS_BITRATE)));
    expect(steps).toEqual([25_600, 20_480, 16_384, 13_107, OPUS_MIN_BITRATE, OPUS_MIN_BITRATE]);
  });

  it('holds between the two thresholds and climbs back to the cap once the loss clears', () => {
    expect(bitrateAfterReport(20_000, 0.05, OPUS_BITRATE)).toBe(20_000);
    let bitrate = OPUS_MIN_BITRATE;
    for (let i = 0; i < 20; i += 1) bitrate = bitrateAfterReport(bitrate, 0, OPUS_BITRATE);
    expect(bitrate).toBe(OPUS_BITRATE);
  });

  it("never goes above a Low Data Mode call's cap", () => {
    expect(bitrateAfterReport(OPUS_LOW_DATA_BITRATE, 0, OPUS_LOW_DATA_BITRATE)).toBe(OPUS_LOW_DATA_BITRATE);
  });
});
