import type * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { dominantFrequency } from '../../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../../tests/support/dsp/tone-frames';
import { OpusFrameDecoder } from '../opus/opus-codec';
import { RtpAudioSending, type OutgoingRtp, type SendingStats } from './rtp-sending';

// The numbering starts two short of its wrap, so that a few packets cross it.
vi.mock('node:crypto', async (original) => ({ ...(await original<typeof crypto>()), randomInt: (max: number) => max - 2 }));

function sending(bitrate = 32_000) {
  const stats: SendingStats = { packetsOut: 0, bytesOut: 0 };
  const packets: OutgoingRtp[] = [];
  const sender = new RtpAudioSending(stats, bitrate, (packet) => packets.push(packet));
  return { stats, packets, sender };
}

describe('RtpAudioSending', () => {
  it('numbers the packets one by one and advances the timestamp 960 ticks, across both wraps', () => {
    const { packets, sender } = sending();
    for (const frame of toneFrames(440, 16_000, 4)) sender.send(frame);
    expect(packets.map((packet) => packet.sequenceNumber)).toEqual([65_534, 65_535, 0, 1]);
    expect(packets.map((packet) => packet.timestamp)).toEqual([4_294_967_294, 958, 1918, 2878]);
    expect(packets.map((packet) => packet.marker)).toEqual([true, false, false, false]);
  });

  it('carries the frames as Opus the far side decodes to the same tone, each packet its own copy', () => {
    const { stats, packets, sender } = sending();
    const lent = new Int16Array(320);
    const asWritten: string[] = [];
    for (const frame of toneFrames(440, 16_000, 50)) {
      lent.set(frame);
      sender.send(lent);
      lent.fill(0);
      asWritten.push(packets.at(-1)!.payload.toString('hex'));
    }
    expect(packets.map((packet) => packet.payload.toString('hex'))).toEqual(asWritten);
    const decoder = new OpusFrameDecoder(16_000);
    const heard = packets.map((packet) => decoder.decode(packet.payload)!.slice());
    expect(dominantFrequency(joinFrames(heard.slice(5)), 16_000)).toBeCloseTo(440, 0);
    expect(stats).toEqual({ packetsOut: 50, bytesOut: packets.reduce((sum, packet) => sum + packet.payload.byteLength, 0) });
  });

  it('spends fewer bytes at a lower bitrate', () => {
    const bytesAt = (bitrate: number) => {
      const { stats, sender } = sending(bitrate);
      for (const frame of toneFrames(440, 16_000, 50)) sender.send(frame);
      return stats.bytesOut;
    };
    expect(bytesAt(16_000)).toBeLessThan(0.7 * bytesAt(32_000));
  });
});
