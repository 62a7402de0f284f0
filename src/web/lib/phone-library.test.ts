import { describe, expect, it } from 'vitest';
import { formatPhoneNumberNow, loadPhoneLibrary } from './phone-library';

describe('the phone library', () => {
  it('formats what calls and voicemails say once loaded, and reads numbers typed or pasted', async () => {
    const phone = await loadPhoneLibrary();
    expect(formatPhoneNumberNow('+14155550100')).toBe('+1 (415) 555-0100');
    expect(formatPhoneNumberNow('+442071838750')).toBe('+44 20 7183 8750');
    expect(phone.toE164('+44 20 7183 8750')).toBe('+442071838750');
    expect(phone.splitInternational('+44 20 7183 8750')).toEqual({ country: expect.objectContaining({ code: 'GB' }), digits: '2071838750' });
    expect(phone.splitInternational('+48 12 345 67 89')).toBeNull();
  });
});
