import { and, asc, eq, ilike, isNotNull, like, or, sql, type SQL } from 'drizzle-orm';
import type { CountryCode } from 'libphonenumber-js';
import type { Contact } from '../../common/api/contacts';
import { DEFAULT_COUNTRY } from '../../common/countries';
import { toE164 } from '../../common/phone';
import type { VoiceSettings } from '../../common/voice';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { phoneNumbers } from '../numbers/schema';
import { currentPlan } from '../plans/service';
import { checkAgainstPlan } from '../voice/service';
import { contacts } from './schema';

type ContactRow = typeof contacts.$inferSelect;

const contactNotFound = () => AppError.notFound('Contact not found');

function toContact(row: ContactRow): Contact {
  return { id: row.id, name: row.name, phoneNumber: row.phoneNumber, email: row.email, voice: row.voiceSettings };
}

/** A preset is refused as the user's own settings are (docs/product.md §2): the dialog must not show a voice calls will not use. */
async function assertVoiceWithinPlan(db: Database, userId: string, voice: VoiceSettings | null | undefined) {
  if (!voice) return;
  const { tier } = await currentPlan(db, userId);
  const { refusal } = checkAgainstPlan(voice, tier);
  if (refusal) throw new AppError(403, 'plan_required', refusal, 'voice');
}

/** The country a number without a country code is read in: the user's first rented number's, else the US. */
async function defaultCountryFor(db: Database, userId: string): Promise<CountryCode> {
  const [first] = await db
    .select({ country: phoneNumbers.country })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), eq(phoneNumbers.status, 'rented')))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(1);
  return (first?.country ?? DEFAULT_COUNTRY) as CountryCode;
}

async function readPhoneNumber(db: Database, userId: string, input: string): Promise<string> {
  const e164 = toE164(input, await defaultCountryFor(db, userId));
  if (!e164) throw AppError.badRequest('Enter a valid phone number', 'phoneNumber');
  return e164;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** docs/product.md §5: matches name, phone or email, case-insensitively; a query of phone characters also matches the digits of numbers. */
function searchCondition(query: string): SQL | undefined {
  const pattern = `%${escapeLike(query)}%`;
  const conditions = [ilike(contacts.name, pattern), ilike(contacts.email, pattern), like(contacts.phoneNumber, pattern)];
  const digits = query.replace(/\D/g, '');
  if (digits && /^[\d\s().+-]+$/.test(query)) conditions.push(like(contacts.phoneNumber, `%${digits}%`));
  return or(...conditions);
}

/** docs/product.md §7: ordered by name (case-insensitively). */
export async function listContacts(db: Database, userId: string, query?: string): Promise<Contact[]> {
  const rows = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.userId, userId), query ? searchCondition(query) : undefined))
    .orderBy(asc(sql`lower(${contacts.name})`), asc(contacts.name), asc(contacts.id));
  return rows.map(toContact);
}

export async function createContact(
  db: Database,
  userId: string,
  input: { name: string; phoneNumber: string; email?: string | null | undefined; voice?: VoiceSettings | null | undefined },
): Promise<Contact> {
  const phoneNumber = await readPhoneNumber(db, userId, input.phoneNumber);
  await assertVoiceWithinPlan(db, userId, input.voice);
  const [row] = await db
    .insert(contacts)
    .values({ userId, name: input.name, phoneNumber, email: input.email ?? null, voiceSettings: input.voice ?? null })
    .returning();
  return toContact(row!);
}

export async function updateContact(
  db: Database,
  userId: string,
  id: string,
  changes: { name?: string | undefined; phoneNumber?: string | undefined; email?: string | null | undefined; voice?: VoiceSettings | null | undefined },
): Promise<Contact> {
  if (!isUuid(id)) throw contactNotFound();
  const phoneNumber = changes.phoneNumber === undefined ? undefined : await readPhoneNumber(db, userId, changes.phoneNumber);
  await assertVoiceWithinPlan(db, userId, changes.voice);
  const [row] = await db
    .update(contacts)
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(phoneNumber !== undefined ? { phoneNumber } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.voice !== undefined ? { voiceSettings: changes.voice } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(contacts.id, id), eq(contacts.userId, userId)))
    .returning();
  if (!row) throw contactNotFound();
  return toContact(row);
}

export async function deleteContact(db: Database, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw contactNotFound();
  const deleted = await db
    .delete(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.userId, userId)))
    .returning({ id: contacts.id });
  if (deleted.length === 0) throw contactNotFound();
}

/**
 * The voice preset of the user's contact for `phoneNumber` (E.164), with the contact's name; null
 * when none of their contacts with that number carries one. Two contacts of one number: the first by name.
 */
export async function contactVoiceFor(db: Database, userId: string, phoneNumber: string): Promise<{ contactName: string; settings: VoiceSettings } | null> {
  const [row] = await db
    .select({ name: contacts.name, voiceSettings: contacts.voiceSettings })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.phoneNumber, phoneNumber), isNotNull(contacts.voiceSettings)))
    .orderBy(asc(sql`lower(${contacts.name})`), asc(contacts.name), asc(contacts.id))
    .limit(1);
  return row?.voiceSettings ? { contactName: row.name, settings: row.voiceSettings } : null;
}
