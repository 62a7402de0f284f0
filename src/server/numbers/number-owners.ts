import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { phoneNumbers } from './schema';

/** Whether the user has rented `phoneNumber` (E.164): a call may go out from it. */
export async function isRentedBy(db: Database, userId: string, phoneNumber: string): Promise<boolean> {
  const [row] = await db
    .select({ id: phoneNumbers.id })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), eq(phoneNumbers.phoneNumber, phoneNumber), eq(phoneNumbers.status, 'rented')));
  return row !== undefined;
}

/**
 * The user holding `phoneNumber` (E.164) in any status (rented, being rented or being released),
 * or null: a call to a number a Voxline user holds never leaves Voxline.
 */
export async function numberHolder(db: Database, phoneNumber: string): Promise<string | null> {
  const [row] = await db.select({ userId: phoneNumbers.userId }).from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, phoneNumber));
  return row?.userId ?? null;
}

/** The user who has rented `phoneNumber` (E.164), or null: the one a call arriving at it rings. */
export async function rentedNumberOwner(db: Database, phoneNumber: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: phoneNumbers.userId })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.phoneNumber, phoneNumber), eq(phoneNumbers.status, 'rented')));
  return row?.userId ?? null;
}

/** The numbers (E.164) the user has rented, in no particular order. */
export async function rentedNumbersOf(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ phoneNumber: phoneNumbers.phoneNumber })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), eq(phoneNumbers.status, 'rented')));
  return rows.map((row) => row.phoneNumber);
}
