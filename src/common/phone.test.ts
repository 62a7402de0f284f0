import { describe, expect, it } from 'vitest';
import { formatPhoneNumber, isReservedNumber, toE164 } from './phone';

describe('toE164', () => {
  it('reads international and national forms', () => {
    expect(toE164('+1 (415) 555-2671')).toBe('+14155552671');
    expect(toE164('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
  });

  it('refuses what is not a valid number', () => {
    expect(toE164('12345')).toBeNull();
    expect(toE164('hello')).toBeNull();
    expect(toE164('')).toBeNull();
  });
});

describe('formatPhoneNumber', () => {
  it('shows +1 numbers as +1 (AAA) BBB-CCCC (docs/product.md §5)', () => {
    expect(formatPhoneNumber('+14155550100')).toBe('+1 (415) 555-0100');
  });

  it('shows other numbers in international format', () => {
    expect(formatPhoneNumber('+442079460958')).toBe('+44 20 7946 0958');
  });
});

describe('isReservedNumber', () => {
  it('holds back the fictional 555-0100 to 555-0199 range, the sound-test line included', () => {
    expect(isReservedNumber('+14155550100')).toBe(true);
    expect(isReservedNumber('+12125550199')).toBe(true);
    expect(isReservedNumber('+14155550200')).toBe(false);
    expect(isReservedNumber('+14155550099')).toBe(false);
    expect(isReservedNumber('+442079460958')).toBe(false);
  });
});
