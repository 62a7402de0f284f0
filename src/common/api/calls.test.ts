import { describe, expect, it } from 'vitest';
import { dtmfBodySchema } from './calls';

const messageOf = (body: unknown) => {
  const parsed = dtmfBodySchema.safeParse(body);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

describe('dtmfBodySchema', () => {
  it('takes 1 to 20 keys of 0-9, * and #', () => {
    expect(dtmfBodySchema.parse({ digits: '0123456789*#' })).toEqual({ digits: '0123456789*#' });
    expect(messageOf({ digits: '#'.repeat(20) })).toBeNull();
  });

  it('refuses other keys, none, more than 20, and other fields, saying what is wrong', () => {
    expect(messageOf({ digits: '12a' })).toBe('Digits may hold only 0-9, * and #');
    expect(messageOf({ digits: '1 2' })).toBe('Digits may hold only 0-9, * and #');
    expect(messageOf({ digits: '+1' })).toBe('Digits may hold only 0-9, * and #');
    expect(messageOf({ digits: '' })).toBe('Digits are required');
    expect(messageOf({ digits: '1'.repeat(21) })).toBe('Send at most 20 digits at once');
    expect(messageOf({})).toBe('Digits is required');
    expect(messageOf({ digits: '1', extra: true })).not.toBeNull();
  });
});
