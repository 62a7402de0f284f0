import { describe, expect, it } from 'vitest';
import { RtpSequence } from './rtp-sequence';

function following(...numbers: number[]) {
  const sequence = new RtpSequence();
  for (const number of numbers) sequence.accept(number);
  return sequence;
}

describe('RtpSequence', () => {
  it('takes any first number, then counts the packets missing before each', () => {
    expect(new RtpSequence().place(40_000)).toEqual({ kind: 'in-order', missing: 0 });
    const sequence = following(100);
    expect(sequence.place(101)).toEqual({ kind: 'in-order', missing: 0 });
    expect(sequence.place(102)).toEqual({ kind: 'in-order', missing: 1 });
    expect(sequence.place(106)).toEqual({ kind: 'in-order', missing: 5 });
  });

  it('starts afresh after a gap longer than it conceals', () => {
    expect(following(100).place(107)).toEqual({ kind: 'resync' });
    expect(following(100).place(20_000)).toEqual({ kind: 'resync' });
  });

  it('follows the numbers across the wrap at 65536', () => {
    expect(following(65_535).place(0)).toEqual({ kind: 'in-order', missing: 0 });
    expect(following(65_534).place(1)).toEqual({ kind: 'in-order', missing: 2 });
    expect(following(65_535, 0).place(65_535)).toEqual({ kind: 'late' });
  });

  it('calls a duplicate or an older packet late', () => {
    const sequence = following(200, 201, 205);
    expect(sequence.place(205)).toEqual({ kind: 'late' });
    expect(sequence.place(203)).toEqual({ kind: 'late' });
    expect(sequence.place(100)).toEqual({ kind: 'late' });
  });

  it('takes a packet far behind the newest as the sender numbering again', () => {
    expect(following(30_000).place(29_000)).toEqual({ kind: 'resync' });
  });

  it('changes nothing until a packet is accepted, and forgets the stream on reset', () => {
    const sequence = following(10);
    sequence.place(12);
    expect(sequence.place(11)).toEqual({ kind: 'in-order', missing: 0 });
    sequence.reset();
    expect(sequence.place(3)).toEqual({ kind: 'in-order', missing: 0 });
  });
});
