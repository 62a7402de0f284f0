import { describe, expect, it } from 'vitest';
import { plans } from '../../common/plans';
import { replyDueAt } from './reply-due';

const at = (iso: string) => new Date(iso);
const due = (replyWithin: Parameters<typeof replyDueAt>[0], sentAt: string) => replyDueAt(replyWithin, at(sentAt)).toISOString();

describe('replyDueAt', () => {
  it('adds hours on any day, weekends and nights included', () => {
    expect(due({ hours: 2 }, '2026-11-28T23:30:00.000Z')).toBe('2026-11-29T01:30:00.000Z'); // Saturday night
    expect(due({ hours: 2 }, '2026-11-25T10:00:00.000Z')).toBe('2026-11-25T12:00:00.000Z');
  });

  it('adds one business day within the week at the same time of day', () => {
    expect(due({ businessDays: 1 }, '2026-11-23T09:15:00.000Z')).toBe('2026-11-24T09:15:00.000Z'); // Monday → Tuesday
    expect(due({ businessDays: 1 }, '2026-11-26T23:59:00.000Z')).toBe('2026-11-27T23:59:00.000Z'); // Thursday → Friday
  });

  it('skips Saturday and Sunday: Friday afternoon is due Monday afternoon', () => {
    expect(due({ businessDays: 1 }, '2026-11-27T15:00:00.000Z')).toBe('2026-11-30T15:00:00.000Z');
  });

  it('counts a request sent at the weekend from Monday 00:00 UTC', () => {
    expect(due({ businessDays: 1 }, '2026-11-28T10:00:00.000Z')).toBe('2026-12-01T00:00:00.000Z'); // Saturday
    expect(due({ businessDays: 1 }, '2026-11-29T23:00:00.000Z')).toBe('2026-12-01T00:00:00.000Z'); // Sunday
  });

  it('crosses a weekend inside a run of business days, and months and years', () => {
    expect(due({ businessDays: 5 }, '2026-11-25T08:00:00.000Z')).toBe('2026-12-02T08:00:00.000Z'); // Wednesday → next Wednesday
    expect(due({ businessDays: 3 }, '2026-12-31T12:00:00.000Z')).toBe('2027-01-05T12:00:00.000Z'); // Thursday → Tuesday
  });

  it('follows each plan’s level', () => {
    const friday = at('2026-11-27T15:00:00.000Z');
    expect(replyDueAt(plans.platinum.support.replyWithin, friday).toISOString()).toBe('2026-11-27T17:00:00.000Z');
    expect(replyDueAt(plans.premium.support.replyWithin, friday).toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(replyDueAt(plans.free.support.replyWithin, friday).toISOString()).toBe('2026-12-04T15:00:00.000Z');
  });
});
