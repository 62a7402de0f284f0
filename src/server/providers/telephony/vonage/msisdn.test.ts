import { describe, expect, it } from 'vitest';
import { fromMsisdn, toMsisdn } from './msisdn';

describe('msisdn', () => {
  it('is E.164 without the plus', () => {
    expect(toMsisdn('+14155552671')).toBe('14155552671');
    expect(fromMsisdn('14155552671')).toBe('+14155552671');
    expect(fromMsisdn('+14155552671')).toBe('+14155552671');
  });
});
