import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Minutes, SubscriptionStatus } from '../../common/api/subscription';
import { plans, SUBSCRIPTION_PERIOD_MS, type PaidPlan, type Tier } from '../../common/plans';
import { calls } from '../calls/schema';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { subscriptions } from './schema';

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** A plan in force: its tier and, for a paid one, when it ends. */
export interface CurrentPlan {
  tier: Tier;
  expiresAt: Date | null;
}

/** docs/product.md §9: a row without expires_at runs until updated_at + 30 days. */
export function expiryOf(row: Pick<SubscriptionRow, 'expiresAt' | 'updatedAt'>): Date {
  return row.expiresAt ?? new Date(row.updatedAt.getTime() + SUBSCRIPTION_PERIOD_MS);
}

/** The plan a subscription row gives at `now`: a paid tier until it expires, then Free. */
export function planAt(row: Pick<SubscriptionRow, 'tier' | 'expiresAt' | 'updatedAt'> | undefined, now: Date): CurrentPlan {
  if (!row || row.tier === 'free') return { tier: 'free', expiresAt: null };
  const expiresAt = expiryOf(row);
  return expiresAt.getTime() > now.getTime() ? { tier: row.tier, expiresAt } : { tier: 'free', expiresAt: null };
}

/** The user's plan in force now (Free without a subscription or once it has expired); `db` may be an open transaction. */
export async function currentPlan(db: Pick<Database, 'select'>, userId: string, now = new Date()): Promise<CurrentPlan> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return planAt(row, now);
}

function toSubscriptionStatus(plan: CurrentPlan): SubscriptionStatus {
  return { tier: plan.tier, isActive: plan.tier !== 'free', expiryDate: plan.expiresAt?.toISOString() ?? null };
}

export async function subscriptionStatus(db: Database, userId: string, now = new Date()): Promise<SubscriptionStatus> {
  return toSubscriptionStatus(await currentPlan(db, userId, now));
}

/** The database or an open transaction on it. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

/**
 * Gives the user `plan` for one more period from `paidAt`, inside the caller's transaction. The
 * same plan renewed before it expires runs on from its current expiry; a change of plan (or a
 * plan that has lapsed) starts at `paidAt` (docs/decisions/006). The row is locked first, so
 * two payments of one user activated at once both count.
 */
export async function extendSubscription(tx: Queryable, userId: string, plan: PaidPlan, paidAt: Date, now = new Date()): Promise<CurrentPlan> {
  await tx.insert(subscriptions).values({ userId, tier: 'free', expiresAt: null }).onConflictDoNothing();
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
  const inForce = planAt(row, paidAt);
  const from = inForce.tier === plan && inForce.expiresAt ? inForce.expiresAt : paidAt;
  const expiresAt = new Date(from.getTime() + SUBSCRIPTION_PERIOD_MS);
  await tx.update(subscriptions).set({ tier: plan, expiresAt, updatedAt: now }).where(eq(subscriptions.userId, userId));
  return { tier: plan, expiresAt };
}

/** The calendar month (UTC) holding `now`: metered minutes count from its start. */
export function monthOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * Seconds of metered calls (docs/architecture.md#plans-and-metering: calls to numbers outside Voxline) the user started this
 * month: each ended call's duration, and a call in progress from its answer until `now`.
 */
export async function meteredSecondsUsed(db: Database, userId: string, now = new Date()): Promise<number> {
  const { start, end } = monthOf(now);
  const [row] = await db
    .select({
      seconds: sql<string>`coalesce(sum(case
        when ${calls.state} = 'ended' then coalesce(${calls.durationSec}, 0)
        when ${calls.answeredAt} is not null then greatest(0, floor(extract(epoch from (${now.toISOString()}::timestamptz - ${calls.answeredAt}))))
        else 0 end), 0)`,
    })
    .from(calls)
    .where(and(eq(calls.userId, userId), eq(calls.metered, true), gte(calls.startedAt, start), lt(calls.startedAt, end)));
  return Number(row?.seconds ?? 0);
}

/** The user's metered minutes this month: the plan's allowance, what is used and what is left. */
export async function minutesThisMonth(db: Database, userId: string, now = new Date()): Promise<Minutes> {
  const [{ tier }, usedSeconds] = await Promise.all([currentPlan(db, userId, now), meteredSecondsUsed(db, userId, now)]);
  const monthlyMinutes = plans[tier].monthlyMinutes;
  return {
    tier,
    monthlyMinutes,
    usedSeconds,
    secondsLeft: monthlyMinutes === null ? null : Math.max(0, monthlyMinutes * 60 - usedSeconds),
    resetsAt: monthOf(now).end.toISOString(),
  };
}

const minutesUsedUp = () => new AppError(403, 'minutes_used_up', 'Monthly minutes used up');

/**
 * For the call engine, before it places a metered call: throws 403 'Monthly minutes used up'
 * (code minutes_used_up) when the user has none left this month.
 */
export async function assertMinutesLeft(db: Database, userId: string, now = new Date()): Promise<void> {
  const { secondsLeft } = await minutesThisMonth(db, userId, now);
  if (secondsLeft !== null && secondsLeft <= 0) throw minutesUsedUp();
}

/**
 * For the call engine, once a metered call is answered: how many milliseconds from `now` the
 * call may go on before this month's minutes run out (0: end it now), or null when unlimited.
 * The call itself counts from its answer, so asking again later gives the same end.
 */
export async function msUntilMinutesRunOut(db: Database, userId: string, now = new Date()): Promise<number | null> {
  const { secondsLeft } = await minutesThisMonth(db, userId, now);
  return secondsLeft === null ? null : secondsLeft * 1000;
}
