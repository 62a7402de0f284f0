import { desc, eq } from 'drizzle-orm';
import type { AdminPayment } from '../../common/api/admin';
import { user } from '../auth/schema';
import type { Database } from '../db/client';
import { payments } from './schema';

/** The latest payment sessions of every user, newest first, with the payer's current address. */
export async function recentPayments(db: Database, limit: number): Promise<AdminPayment[]> {
  const rows = await db
    .select({
      reference: payments.reference,
      email: user.email,
      plan: payments.plan,
      amountUsdMinor: payments.amountUsdMinor,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      status: payments.status,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .innerJoin(user, eq(user.id, payments.userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
