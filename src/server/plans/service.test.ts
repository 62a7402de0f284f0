import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { SUBSCRIPTION_PERIOD_MS } from '../../common/plans';
import { calls } from '../calls/schema';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { subscriptions } from './schema';
import { assertMinutesLeft, currentPlan, expiryOf, extendSubscription, meteredSecondsUsed, minutesThisMonth, monthOf, msUntilMinutesRunOut, planAt } from './service';

let testApp: TestApp;
let db: Database;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
  db = testApp.database.db;
});
afterAll(() => testApp.close());

const DAY = 86_400_000;
const NOW = new Date('2026-03-15T12:00:00Z');

async function newUserId() {
  return (await newSignedInUser(testApp.app)).userId;
}

/** A call record as the call engine writes it. */
async function addCall(userId: string, { metered = true, startedAt = NOW, durationSec = 60, answeredAt = null as Date | null, ended = true } = {}) {
  await db.insert(calls).values({
    conversationId: randomUUID(),
    userId,
    direction: 'outbound',
    fromNumber: '+14155550123',
    toNumber: '+442079460958',
    state: ended ? 'ended' : answeredAt ? 'answered' : 'ringing',
    outcome: ended ? 'completed' : null,
    startedAt,
    answeredAt: answeredAt ?? (ended ? startedAt : null),
    endedAt: ended ? new Date(startedAt.getTime() + durationSec * 1000) : null,
    durationSec: ended ? durationSec : null,
    metered,
  });
}

async function subscribe(userId: string, tier: 'premium' | 'platinum', expiresAt: Date | null, updatedAt = NOW) {
  await db.insert(subscriptions).values({ userId, tier, expiresAt, updatedAt });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the plan in force', () => {
  it('is Free without a subscription, the paid tier until it expires, then Free again', () => {
    expect(planAt(undefined, NOW)).toEqual({ tier: 'free', expiresAt: null });
    const row = { tier: 'premium' as const, expiresAt: new Date(NOW.getTime() + DAY), updatedAt: NOW };
    expect(planAt(row, NOW)).toEqual({ tier: 'premium', expiresAt: row.expiresAt });
    expect(planAt(row, new Date(NOW.getTime() + DAY))).toEqual({ tier: 'free', expiresAt: null });
  });

  it('without expires_at runs until updated_at + 2592000000 ms (docs/product.md §9)', () => {
    expect(expiryOf({ expiresAt: null, updatedAt: NOW }).getTime()).toBe(NOW.getTime() + 2_592_000_000);
    expect(planAt({ tier: 'platinum', expiresAt: null, updatedAt: NOW }, new Date(NOW.getTime() + 29 * DAY)).tier).toBe('platinum');
    expect(planAt({ tier: 'platinum', expiresAt: null, updatedAt: NOW }, new Date(NOW.getTime() + 30 * DAY)).tier).toBe('free');
  });

  it('is read from the subscriptions table', async () => {
    const userId = await newUserId();
    expect(await currentPlan(db, userId, NOW)).toEqual({ tier: 'free', expiresAt: null });
    await subscribe(userId, 'platinum', new Date(NOW.getTime() + DAY));
    expect(await currentPlan(db, userId, NOW)).toEqual({ tier: 'platinum', expiresAt: new Date(NOW.getTime() + DAY) });
  });
});

describe('extendSubscription', () => {
  it('renews the same plan from its expiry, restarts a lapsed or changed plan from the payment', async () => {
    const userId = await newUserId();
    const first = await db.transaction((tx) => extendSubscription(tx, userId, 'premium', NOW, NOW));
    expect(first).toEqual({ tier: 'premium', expiresAt: new Date(NOW.getTime() + SUBSCRIPTION_PERIOD_MS) });
    const renewedAt = new Date(NOW.getTime() + 10 * DAY);
    const renewal = await db.transaction((tx) => extendSubscription(tx, userId, 'premium', renewedAt, renewedAt));
    expect(renewal.expiresAt!.getTime()).toBe(NOW.getTime() + 2 * SUBSCRIPTION_PERIOD_MS);
    const upgradedAt = new Date(NOW.getTime() + 11 * DAY);
    const upgrade = await db.transaction((tx) => extendSubscription(tx, userId, 'platinum', upgradedAt, upgradedAt));
    expect(upgrade).toEqual({ tier: 'platinum', expiresAt: new Date(upgradedAt.getTime() + SUBSCRIPTION_PERIOD_MS) });
    const lapsedAt = new Date(upgradedAt.getTime() + 40 * DAY);
    const afterLapse = await db.transaction((tx) => extendSubscription(tx, userId, 'platinum', lapsedAt, lapsedAt));
    expect(afterLapse.expiresAt!.getTime()).toBe(lapsedAt.getTime() + SUBSCRIPTION_PERIOD_MS);
  });

  it('counts both of two payments activated at the same moment', async () => {
    const userId = await newUserId();
    await Promise.all([
      db.transaction((tx) => extendSubscription(tx, userId, 'premium', NOW, NOW)),
      db.transaction((tx) => extendSubscription(tx, userId, 'premium', NOW, NOW)),
    ]);
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(row!.expiresAt!.getTime()).toBe(NOW.getTime() + 2 * SUBSCRIPTION_PERIOD_MS);
  });
});

describe('metered minutes', () => {
  it('count the ended metered calls started this calendar month, and nothing else', async () => {
    const userId = await newUserId();
    const someoneElse = await newUserId();
    await addCall(userId, { durationSec: 90 });
    await addCall(userId, { durationSec: 30, startedAt: new Date('2026-03-01T00:00:00Z') });
    await addCall(userId, { durationSec: 500, metered: false });
    await addCall(userId, { durationSec: 500, startedAt: new Date('2026-02-28T23:59:59Z') });
    await addCall(userId, { durationSec: 500, startedAt: new Date('2026-04-01T00:00:00Z') });
    await addCall(someoneElse, { durationSec: 500 });
    expect(await meteredSecondsUsed(db, userId, NOW)).toBe(120);
    expect(await minutesThisMonth(db, userId, NOW)).toEqual({
      tier: 'free',
      monthlyMinutes: 10,
      usedSeconds: 120,
      secondsLeft: 480,
      resetsAt: '2026-04-01T00:00:00.000Z',
    });
  });

  it('count a call in progress from its answer, and a ringing call not at all', async () => {
    const userId = await newUserId();
    await addCall(userId, { ended: false, answeredAt: new Date(NOW.getTime() - 45_000) });
    expect(await meteredSecondsUsed(db, userId, NOW)).toBe(45);
    const ringing = await newUserId();
    await addCall(ringing, { ended: false });
    expect(await meteredSecondsUsed(db, ringing, NOW)).toBe(0);
  });

  it('refuse a call with none left on Free (10 minutes), and let one through with a second left', async () => {
    const userId = await newUserId();
    await addCall(userId, { durationSec: 599 });
    await assertMinutesLeft(db, userId, NOW);
    expect(await msUntilMinutesRunOut(db, userId, NOW)).toBe(1000);
    await addCall(userId, { durationSec: 1, startedAt: new Date(NOW.getTime() + 1000) });
    const error = await refusal(assertMinutesLeft(db, userId, NOW));
    expect(error).toMatchObject({ statusCode: 403, code: 'minutes_used_up', message: 'Monthly minutes used up' });
    expect(await msUntilMinutesRunOut(db, userId, NOW)).toBe(0);
    // A new month starts the count again.
    await assertMinutesLeft(db, userId, new Date('2026-04-01T00:00:00Z'));
  });

  it('end a call in progress when the minutes run out: the deadline stays put while it goes on', async () => {
    const userId = await newUserId();
    await addCall(userId, { durationSec: 540 });
    const answeredAt = NOW;
    await addCall(userId, { ended: false, answeredAt, startedAt: new Date(NOW.getTime() - 5000) });
    expect(await msUntilMinutesRunOut(db, userId, answeredAt)).toBe(60_000);
    expect(await msUntilMinutesRunOut(db, userId, new Date(answeredAt.getTime() + 20_000))).toBe(40_000);
    expect(await msUntilMinutesRunOut(db, userId, new Date(answeredAt.getTime() + 90_000))).toBe(0);
  });

  it('give Premium 150 minutes, Platinum no limit, and an expired plan Free limits', async () => {
    const premium = await newUserId();
    await subscribe(premium, 'premium', new Date(NOW.getTime() + DAY));
    await addCall(premium, { durationSec: 600 });
    expect(await minutesThisMonth(db, premium, NOW)).toMatchObject({ tier: 'premium', monthlyMinutes: 150, usedSeconds: 600, secondsLeft: 8400 });
    await assertMinutesLeft(db, premium, NOW);
    await addCall(premium, { durationSec: 8400 });
    expect((await refusal(assertMinutesLeft(db, premium, NOW))).code).toBe('minutes_used_up');

    const platinum = await newUserId();
    await subscribe(platinum, 'platinum', new Date(NOW.getTime() + DAY));
    await addCall(platinum, { durationSec: 100_000 });
    expect(await minutesThisMonth(db, platinum, NOW)).toMatchObject({ tier: 'platinum', monthlyMinutes: null, usedSeconds: 100_000, secondsLeft: null });
    await assertMinutesLeft(db, platinum, NOW);
    expect(await msUntilMinutesRunOut(db, platinum, NOW)).toBeNull();

    const lapsed = await newUserId();
    await subscribe(lapsed, 'premium', new Date(NOW.getTime() - 1));
    await addCall(lapsed, { durationSec: 600 });
    expect((await refusal(assertMinutesLeft(db, lapsed, NOW))).code).toBe('minutes_used_up');
  });

  it('run by calendar month in UTC', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59Z'))).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
  });
});
