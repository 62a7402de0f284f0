import { describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../../tests/support/dsp/analysis';
import { joinFrames, toneFrames } from '../../../../tests/support/dsp/tone-frames';
import { MediaMetrics } from '../../metrics/media-meter';
import { OpusFrameEncoder } from '../opus/opus-codec';
import { RtpAudioReceiving, type ReceivingStats } from './rtp-receiving';

const SSRC = 0x1234_5678;

/** Opus packets of a 440 Hz tone, copied out of the encoder, numbered from `first`. */
function tonePackets(count: number, first = 1000) {
  const encoder = new OpusFrameEncoder(16_000, 32_000);
  return toneFrames(440, 16_000, count).map((frame, i) => ({ sequenceNumber: (first + i) & 0xffff, payload: encoder.encode(frame).slice() }));
}

function receiving() {
  const stats: ReceivingStats = { packetsIn: 0, bytesIn: 0, concealedFrames: 0, lateOrDuplicate: 0, malformed: 0 };
  const frames: Int16Array[] = [];
  const receiver = new RtpAudioReceiving(stats, (frame) => frames.push(frame.slice()));
  const receive = (packet: { sequenceNumber: number; payload: Uint8Array }, ssrc = SSRC) => receiver.receive(ssrc, packet.sequenceNumber, packet.payload);
  return { stats, frames, receive };
}

describe('RtpAudioReceiving', () => {
  it('decodes packets in order to 16 kHz frames of the tone sent, and counts them', () => {
    const { stats, frames, receive } = receiving();
    const packets = tonePackets(25);
    packets.forEach((packet) => receive(packet));
    expect(frames).toHaveLength(25);
    expect(frames.every((frame) => frame.length === 320)).toBe(true);
    expect(dominantFrequency(joinFrames(frames.slice(5)), 16_000)).toBeCloseTo(440, 0);
    expect(stats).toEqual({ packetsIn: 25, bytesIn: packets.reduce((sum, p) => sum + p.payload.byteLength, 0), concealedFrames: 0, lateOrDuplicate: 0, malformed: 0 });
  });

  it('fills a gap of up to five packets with concealment, so every 20 ms has its frame', () => {
    const { stats, frames, receive } = receiving();
    const packets = tonePackets(30);
    packets.filter((_, i) => ![10, 11, 20, 21, 22, 23, 24].includes(i)).forEach((packet) => receive(packet));
    expect(frames).toHaveLength(30);
    expect(stats.concealedFrames).toBe(7);
    expect(dominantFrequency(joinFrames(frames.slice(5, 14)), 16_000)).toBeCloseTo(440, -1);
  });

  it('counts the frames received and those concealed on its meter (voxline_media_*_total)', () => {
    const media = new MediaMetrics();
    const stats: ReceivingStats = { packetsIn: 0, bytesIn: 0, concealedFrames: 0, lateOrDuplicate: 0, malformed: 0 };
    const receiver = new RtpAudioReceiving(stats, () => {}, media.stream('webrtc'));
    tonePackets(30)
      .filter((_, i) => ![10, 11, 20, 21, 22, 23, 24].includes(i))
      .forEach((packet) => receiver.receive(SSRC, packet.sequenceNumber, packet.payload));
    expect(media.totals().get('webrtc')).toEqual({ framesIn: 23, framesOut: 0, concealed: 7 });
  });

  it('conceals nothing across a longer gap: the listener has already heard it as silence', () => {
    const { stats, frames, receive } = receiving();
    const packets = tonePackets(20);
    packets.filter((_, i) => i < 5 || i >= 11).forEach((packet) => receive(packet));
    expect(frames).toHaveLength(14);
    expect(stats.concealedFrames).toBe(0);
    // The audio after the gap rises out of silence rather than starting at full swing.
    expect(Math.abs(frames[5]![0]!)).toBeLessThan(500);
  });

  it('drops a duplicate and a packet later than one already played, and counts them', () => {
    const { stats, frames, receive } = receiving();
    const packets = tonePackets(6);
    for (const i of [0, 1, 1, 3, 2, 4, 5]) receive(packets[i]!);
    expect(stats.lateOrDuplicate).toBe(2);
    expect(stats.concealedFrames).toBe(1);
    expect(frames).toHaveLength(6);
  });

  it('follows the sequence numbers across their wrap', () => {
    const { stats, frames, receive } = receiving();
    tonePackets(10, 65_530).forEach((packet) => receive(packet));
    expect(frames).toHaveLength(10);
    expect(stats.lateOrDuplicate + stats.concealedFrames).toBe(0);
  });

  it('drops empty, oversized and undecodable payloads without throwing, and conceals their place', () => {
    const { stats, frames, receive } = receiving();
    const packets = tonePackets(8);
    receive(packets[0]!);
    receive({ sequenceNumber: packets[1]!.sequenceNumber, payload: new Uint8Array(0) });
    receive({ sequenceNumber: packets[2]!.sequenceNumber, payload: new Uint8Array(1276).fill(0x78) });
    receive({ sequenceNumber: packets[3]!.sequenceNumber, payload: new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x01]) });
    packets.slice(4).forEach((packet) => receive(packet));
    expect(stats.malformed).toBe(3);
    expect(stats.concealedFrames).toBe(3);
    expect(frames).toHaveLength(8);
  });

  it('starts afresh on a new SSRC, whatever its numbers', () => {
    const { stats, frames, receive } = receiving();
    tonePackets(5, 40_000).forEach((packet) => receive(packet));
    tonePackets(5, 100).forEach((packet) => receive(packet, SSRC + 1));
    expect(frames).toHaveLength(10);
    expect(stats.lateOrDuplicate + stats.concealedFrames).toBe(0);
  });
});
