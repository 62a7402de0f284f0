import type { Contact } from '../../../common/api/contacts';
import { formatPhoneNumber } from '../../../common/phone';

const PHONE_CHARACTERS = /^[\d\s().+-]+$/;

/**
 * docs/product.md §5: a contact matches when its name, phone or email contains the query, case-insensitively.
 * The phone matches as stored (+14155550100), as shown (+1 (415) 555-0100) and, for a query of
 * phone characters, by its digits ('415 555' finds +1 (415) 555-…), as the server's ?q= does.
 */
export function contactMatches(contact: Contact, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  if (contact.name.toLowerCase().includes(needle)) return true;
  if (contact.email?.toLowerCase().includes(needle)) return true;
  if (contact.phoneNumber.includes(needle) || formatPhoneNumber(contact.phoneNumber).includes(needle)) return true;
  const digits = needle.replace(/\D/g, '');
  return digits !== '' && PHONE_CHARACTERS.test(needle) && contact.phoneNumber.replace(/\D/g, '').includes(digits);
}
