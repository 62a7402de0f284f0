import { and, asc, count, eq, gte, inArray, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { NUMBER_SEARCH_LIMIT, type AvailableNumber, type NumberLimit, type OwnedNumber } from '../../common/api/numbers';
import { findCountry, type SupportedCountryCode } from '../../common/countries';
import { minorToDecimal } from '../../common/money';
import { isReservedNumber } from '../../common/phone';
import { moreNumbersAdvice, numbersInWords, plans, tierName, type Tier } from '../../common/plans';
import { user } from '../auth/schema';
import type { Database } from '../db/client';
import { isUniqueViolation, isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { currentPlan } from '../plans/service';
import { TelephonyError, type NumberRef, type TelephonyProvider } from '../providers/telephony/telephony-provider';
import { phoneNumbers } from './schema';

// A reservation left behind by a crash mid-rent stops blocking its number after this long.
const STALE_RESERVATION_MS = 10 * 60_000;

export interface NumbersContext {
  db: Database;
  telephony: TelephonyProvider;
  log: FastifyBaseLogger;
}

type PhoneNumberRow = typeof phoneNumbers.$inferSelect;

const numberUnavailable = () => new AppError(409, 'number_unavailable', 'Number no longer available', 'phoneNumber');
const numberNotFound = () => AppError.notFound('Phone number not found');

/** 403 when the plan's numbers are all held: what the plan includes and how to get more. */
function numberLimitReached(tier: Tier): AppError {
  return new AppError(403, 'number_limit_reached', `Your ${tierName(tier)} plan includes ${numbersInWords(plans[tier].maxNumbers)}. ${moreNumbersAdvice(tier)}`);
}

/** The user's numbers that count against the plan's limit: rented, being released, or being rented (a stale reservation no longer counts). */
function holdsAPlace(userId: string, now: Date) {
  return and(
    eq(phoneNumbers.userId, userId),
    or(
      inArray(phoneNumbers.status, ['rented', 'releasing']),
      and(eq(phoneNumbers.status, 'renting'), gte(phoneNumbers.createdAt, new Date(now.getTime() - STALE_RESERVATION_MS))),
    ),
  );
}

function toOwnedNumber(row: PhoneNumberRow): OwnedNumber {
  return {
    id: row.id,
    phoneNumber: row.phoneNumber,
    friendlyName: row.friendlyName,
    active: row.active,
    country: row.country,
    monthlyCost: minorToDecimal(row.monthlyCostMinor),
    currency: row.currency,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A provider's failure as the client sees it: a taken number is 409, anything else 502 with the provider's reason. */
function providerFailure(error: unknown): never {
  if (!(error instanceof TelephonyError)) throw error;
  if (error.failure === 'number_unavailable') throw numberUnavailable();
  throw AppError.providerFailed(error.message, error);
}

/**
 * The search pattern as national digits: what follows the country code. A leading '+' and the
 * country's calling code, or the country's trunk prefix ('0' in the UK, '1' in the US), are dropped.
 */
export function nationalPattern(country: SupportedCountryCode, pattern: string | undefined): string | undefined {
  if (!pattern) return undefined;
  const option = findCountry(country);
  let digits = pattern;
  if (digits.startsWith('+')) {
    digits = digits.slice(1);
    const callingCode = getCountryCallingCode(country);
    if (digits.startsWith(callingCode)) digits = digits.slice(callingCode.length);
  } else if (option?.trunkPrefix && digits.startsWith(option.trunkPrefix)) {
    digits = digits.slice(option.trunkPrefix.length);
  }
  return digits === '' ? undefined : digits;
}

/** Which of these E.164 numbers are held by any user (rented, being rented or being released). */
export async function findRentedNumbers(db: Database, numbers: string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db.select({ phoneNumber: phoneNumbers.phoneNumber }).from(phoneNumbers).where(inArray(phoneNumbers.phoneNumber, numbers));
  return new Set(rows.map((row) => row.phoneNumber));
}

export async function searchAvailableNumbers(
  { db, telephony }: NumbersContext,
  { country, pattern }: { country: SupportedCountryCode; pattern?: string | undefined },
): Promise<AvailableNumber[]> {
  const startsWith = nationalPattern(country, pattern);
  const offers = await telephony.searchNumbers({ country, limit: NUMBER_SEARCH_LIMIT, ...(startsWith ? { startsWith } : {}) }).catch(providerFailure);
  const rented = await findRentedNumbers(db, offers.map((offer) => offer.phoneNumber));
  return offers
    .filter((offer) => !rented.has(offer.phoneNumber) && !isReservedNumber(offer.phoneNumber))
    .map((offer) => ({
      phoneNumber: offer.phoneNumber,
      country: offer.country,
      cost: minorToDecimal(offer.monthlyCost.amountMinor),
      currency: offer.monthlyCost.currency,
    }));
}

function rentedRows(db: Database, userId: string): Promise<PhoneNumberRow[]> {
  return db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), eq(phoneNumbers.status, 'rented')))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id));
}

/** The user's numbers, the first rented first (the dialer preselects it). */
export async function listNumbers(db: Database, userId: string): Promise<OwnedNumber[]> {
  return (await rentedRows(db, userId)).map(toOwnedNumber);
}

/**
 * The user's numbers as listNumbers, with `active` as the provider routes them now: one it no
 * longer routes to Voxline (linked to another application, or released at the provider while still
 * on the user's list) is inactive, and active again once it is routed back. The stored flag keeps
 * the provider's last answer for when it cannot be asked.
 */
export async function listNumbersAsRouted({ db, telephony, log }: NumbersContext, userId: string): Promise<OwnedNumber[]> {
  const rows = await rentedRows(db, userId);
  const theirs = rows.filter((row) => row.provider === telephony.name);
  if (!telephony.routedNumbers || theirs.length === 0) return rows.map(toOwnedNumber);
  let routed: Set<string>;
  try {
    routed = await telephony.routedNumbers();
  } catch (error) {
    log.warn({ err: error, provider: telephony.name }, 'could not ask the provider which numbers reach Voxline; showing its last answer');
    return rows.map(toOwnedNumber);
  }
  for (const row of theirs.filter((number) => routed.has(number.phoneNumber) !== number.active)) {
    row.active = !row.active;
    await db.update(phoneNumbers).set({ active: row.active }).where(eq(phoneNumbers.id, row.id));
  }
  return rows.map(toOwnedNumber);
}

/** How many numbers the user's plan in force lets them hold (docs/decisions/015). */
export async function numberLimit(db: Database, userId: string): Promise<NumberLimit> {
  const { tier } = await currentPlan(db, userId);
  return { tier, maxNumbers: plans[tier].maxNumbers };
}

/**
 * Inserts the reservation if the user's plan has a place for it. The user's row is locked first,
 * so two rents of one user are counted one after the other and the second sees the first's
 * reservation: together they cannot pass the limit.
 */
async function reserveWithinLimit(db: Database, values: typeof phoneNumbers.$inferInsert & { userId: string }): Promise<PhoneNumberRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, values.userId)).for('update');
    const { tier } = await currentPlan(tx, values.userId);
    const [held] = await tx.select({ count: count() }).from(phoneNumbers).where(holdsAPlace(values.userId, new Date()));
    if ((held?.count ?? 0) >= plans[tier].maxNumbers) throw numberLimitReached(tier);
    const [row] = await tx.insert(phoneNumbers).values(values).returning();
    return row!;
  });
}

/**
 * Rents a number for the user within their plan's limit. The row is inserted first, as a
 * reservation: the unique phone_number lets exactly one of two simultaneous renters through to the
 * provider, so nobody pays for a number they will not get, and the reservation holds the user's
 * place against the limit while the provider is asked. Any failure afterwards gives the number
 * back and removes the reservation, freeing the place.
 */
export async function rentNumber(
  { db, telephony, log }: NumbersContext,
  userId: string,
  request: { country: SupportedCountryCode; phoneNumber: string; friendlyName?: string | null | undefined },
): Promise<OwnedNumber> {
  const { country } = request;
  const parsed = parsePhoneNumberFromString(request.phoneNumber);
  // A number libphonenumber-js does not know yet is left to the provider to judge.
  if (!parsed || parsed.countryCallingCode !== getCountryCallingCode(country) || (parsed.isValid() && parsed.country !== country)) {
    throw AppError.badRequest(`This number is not in ${findCountry(country)?.name ?? country}`, 'phoneNumber');
  }
  // Kept as libphonenumber-js writes it (+64 0 9… as +64 9…), the form a dialled number takes (toE164).
  const phoneNumber = parsed.isValid() ? parsed.number : request.phoneNumber;
  if (isReservedNumber(phoneNumber)) throw numberUnavailable();

  await db
    .delete(phoneNumbers)
    .where(and(eq(phoneNumbers.phoneNumber, phoneNumber), eq(phoneNumbers.status, 'renting'), lt(phoneNumbers.createdAt, new Date(Date.now() - STALE_RESERVATION_MS))));

  let reservation: PhoneNumberRow;
  try {
    reservation = await reserveWithinLimit(db, { userId, phoneNumber, country, friendlyName: request.friendlyName ?? null, provider: telephony.name, status: 'renting' });
  } catch (error) {
    if (isUniqueViolation(error)) throw numberUnavailable();
    throw error;
  }

  const ref: NumberRef = { country, phoneNumber };
  const dropReservation = () =>
    db
      .delete(phoneNumbers)
      .where(eq(phoneNumbers.id, reservation.id))
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error, phoneNumber }, 'could not remove a failed number reservation'),
      );

  let rented = false;
  try {
    const { monthlyCost } = await telephony.rentNumber(ref);
    rented = true;
    await telephony.configureInboundVoice(ref);
    const [row] = await db
      .update(phoneNumbers)
      .set({ status: 'rented', active: true, monthlyCostMinor: monthlyCost.amountMinor, currency: monthlyCost.currency })
      .where(eq(phoneNumbers.id, reservation.id))
      .returning();
    if (!row) throw new Error('the number reservation disappeared while renting');
    return toOwnedNumber(row);
  } catch (error) {
    if (rented) {
      await telephony.releaseNumber(ref).catch((releaseError: unknown) => {
        log.error({ err: releaseError, phoneNumber, provider: telephony.name }, 'a number rented for a failed request could not be released');
      });
    }
    await dropReservation();
    return providerFailure(error);
  }
}

export async function renameNumber(db: Database, userId: string, id: string, friendlyName: string | null): Promise<OwnedNumber> {
  if (!isUuid(id)) throw numberNotFound();
  const [row] = await db
    .update(phoneNumbers)
    .set({ friendlyName })
    .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.userId, userId), eq(phoneNumbers.status, 'rented')))
    .returning();
  if (!row) throw numberNotFound();
  return toOwnedNumber(row);
}

/** Gives the number back to the provider, then forgets it; a provider failure keeps it rented. */
export async function releaseNumber({ db, telephony }: NumbersContext, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw numberNotFound();
  const [row] = await db
    .update(phoneNumbers)
    .set({ status: 'releasing' })
    .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.userId, userId), eq(phoneNumbers.status, 'rented')))
    .returning();
  if (!row) throw numberNotFound();
  const restore = () => db.update(phoneNumbers).set({ status: 'rented' }).where(eq(phoneNumbers.id, row.id));

  if (row.provider === telephony.name) {
    try {
      await telephony.releaseNumber({ country: row.country as SupportedCountryCode, phoneNumber: row.phoneNumber });
    } catch (error) {
      await restore();
      providerFailure(error);
    }
  } else if (row.provider !== 'local') {
    // A virtual number needs nobody to give it back; one bought from a provider needs that provider.
    await restore();
    throw new AppError(409, 'provider_mismatch', `This number was rented through ${row.provider}; it can be released only while TELEPHONY=${row.provider}`);
  }
  await db.delete(phoneNumbers).where(eq(phoneNumbers.id, row.id));
}
