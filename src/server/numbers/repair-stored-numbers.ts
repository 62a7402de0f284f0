import { and, eq, notExists } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { toE164 } from '../../common/phone';
import { calls } from '../calls/schema';
import type { Database } from '../db/database';
import { phoneNumbers } from './schema';

/** What repairing the stored numbers did: values rewritten, and rented numbers left as they were. */
export interface StoredNumbersRepair {
  changed: number;
  skipped: string[];
}

/** The E.164 that toE164 reads `stored` as, when that is valid and written otherwise; else null. */
function properForm(stored: string): string | null {
  const e164 = toE164(stored);
  return e164 !== null && e164 !== stored ? e164 : null;
}

/**
 * The local carrier once offered numbers with their national trunk prefix kept (+64 0 9… for
 * +64 9…), and renting stored them so: a call dialled to one is read as its E.164 (toE164) and
 * did not find the row. This rewrites such rented numbers, and the calls that name them, to that
 * E.164. Values toE164 cannot read ('Unknown' callers) stay. A rented number whose E.164 another
 * row already holds is left as it is and named in `skipped`.
 */
export async function repairStoredNumbers(db: Database): Promise<StoredNumbersRepair> {
  const rented = await repairRentedNumbers(db);
  const called = await repairCallNumbers(db);
  return { changed: rented.changed + called, skipped: rented.skipped };
}

async function repairRentedNumbers(db: Database): Promise<StoredNumbersRepair> {
  const other = alias(phoneNumbers, 'other');
  const rows = await db.select({ id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber }).from(phoneNumbers);
  const skipped: string[] = [];
  let changed = 0;
  for (const row of rows) {
    const e164 = properForm(row.phoneNumber);
    if (e164 === null) continue;
    const updated = await db
      .update(phoneNumbers)
      .set({ phoneNumber: e164 })
      .where(and(eq(phoneNumbers.id, row.id), notExists(db.select({ id: other.id }).from(other).where(eq(other.phoneNumber, e164)))))
      .returning({ id: phoneNumbers.id });
    if (updated.length > 0) changed += 1;
    else skipped.push(`phone_numbers ${row.id}: ${row.phoneNumber} kept, as another row already holds ${e164}`);
  }
  return { changed, skipped };
}

/** Each distinct number once, however many calls name it. */
async function repairCallNumbers(db: Database): Promise<number> {
  const stored = await db
    .select({ number: calls.fromNumber })
    .from(calls)
    .union(db.select({ number: calls.toNumber }).from(calls));
  let changed = 0;
  for (const { number } of stored) {
    const e164 = properForm(number);
    if (e164 === null) continue;
    const from = await db.update(calls).set({ fromNumber: e164 }).where(eq(calls.fromNumber, number)).returning({ id: calls.id });
    const to = await db.update(calls).set({ toNumber: e164 }).where(eq(calls.toNumber, number)).returning({ id: calls.id });
    changed += from.length + to.length;
  }
  return changed;
}
