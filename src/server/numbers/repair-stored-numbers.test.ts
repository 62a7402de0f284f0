import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toE164 } from '../../common/phone';
import { openDatabaseAtMigration } from '../../../tests/support/database-at-migration';
import { user } from '../auth/schema';
import { calls } from '../calls/schema';
import type { DatabaseHandle } from '../db/client';
import { dataRepairs } from '../db/data-repairs-table';
import { rentedNumberOwner } from './number-owners';
import { phoneNumbers } from './schema';

// Trunk-prefixed numbers as the local carrier offered them, and the E.164 libphonenumber reads.
const newZealand = { stored: '+64093869328', e164: '+6493869328' };
const australia = { stored: '+610212345678', e164: '+61212345678' };
const brazil = { stored: '+559011987654321', e164: '+5511987654321' };
const britain = { stored: '+4402079460000', e164: '+442079460000' };
// Italian numbers keep their 0: already E.164 as stored.
const italy = '+390212345678';

let database: DatabaseHandle;

beforeEach(async () => {
  database = await openDatabaseAtMigration('0007_provider-call-index');
});

afterEach(async () => {
  await database.close();
});

async function newUser(): Promise<string> {
  const id = randomUUID();
  await database.db.insert(user).values({ id, name: 'Holder', email: `${id}@example.com` });
  return id;
}

async function rented(userId: string, phoneNumber: string, country: string) {
  const [row] = await database.db.insert(phoneNumbers).values({ userId, phoneNumber, country, status: 'rented', provider: 'local' }).returning();
  return row!;
}

/** In SQL: the calls table as migration 0007 left it, without the columns added since. */
async function endedCall(userId: string, direction: 'outbound' | 'inbound', fromNumber: string, toNumber: string) {
  const result = (await database.db.execute(
    sql`insert into calls (conversation_id, user_id, direction, from_number, to_number, state, metered) values (${randomUUID()}, ${userId}, ${direction}, ${fromNumber}, ${toNumber}, 'ended', false) returning id`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows[0]!;
}

const numberOf = async (id: string) => (await database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id)))[0]!.phoneNumber;
const callNumbers = async (id: string) => {
  const [row] = await database.db.select({ from: calls.fromNumber, to: calls.toNumber }).from(calls).where(eq(calls.id, id));
  return row;
};

describe('repairing stored numbers, once, after the SQL migrations', () => {
  it('rewrites trunk-prefixed numbers to E.164 and leaves proper numbers and Unknown alone', async () => {
    const ada = await newUser();
    const bob = await newUser();
    const carol = await newUser();
    const dan = await newUser();
    const adaNumber = await rented(ada, newZealand.stored, 'NZ');
    const bobNumber = await rented(bob, italy, 'IT');
    const carolNumber = await rented(carol, australia.stored, 'AU');
    const danNumber = await rented(dan, brazil.stored, 'BR');
    const adaToBob = await endedCall(ada, 'outbound', newZealand.stored, italy);
    const bobFromAda = await endedCall(bob, 'inbound', newZealand.stored, italy);
    const unknownToCarol = await endedCall(carol, 'inbound', 'Unknown', australia.stored);
    const danOut = await endedCall(dan, 'outbound', brazil.stored, britain.stored);

    const reports = await database.migrate();

    // 3 rented numbers, and 5 numbers in calls: Ada's twice, Carol's once, Dan's call both ways.
    expect(reports).toEqual([{ name: 'stored-numbers-e164', changed: 8, skipped: [] }]);
    expect(await numberOf(adaNumber.id)).toBe(newZealand.e164);
    expect(await numberOf(bobNumber.id)).toBe(italy);
    expect(await numberOf(carolNumber.id)).toBe(australia.e164);
    expect(await numberOf(danNumber.id)).toBe(brazil.e164);
    expect(await callNumbers(adaToBob.id)).toEqual({ from: newZealand.e164, to: italy });
    expect(await callNumbers(bobFromAda.id)).toEqual({ from: newZealand.e164, to: italy });
    expect(await callNumbers(unknownToCarol.id)).toEqual({ from: 'Unknown', to: australia.e164 });
    expect(await callNumbers(danOut.id)).toEqual({ from: brazil.e164, to: britain.e164 });
  });

  it('lets a call dialled to a repaired number find its owner', async () => {
    const ada = await newUser();
    await rented(ada, newZealand.stored, 'NZ');
    const dialled = toE164('+64 9 386 9328')!;
    expect(await rentedNumberOwner(database.db, dialled)).toBeNull();

    await database.migrate();

    expect(await rentedNumberOwner(database.db, dialled)).toBe(ada);
  });

  it('keeps a rented number whose E.164 another row holds, and says so', async () => {
    const eve = await newUser();
    const fay = await newUser();
    const eveNumber = await rented(eve, britain.stored, 'GB');
    const fayNumber = await rented(fay, britain.e164, 'GB');

    const [report] = await database.migrate();

    expect(report!.skipped).toEqual([`phone_numbers ${eveNumber.id}: ${britain.stored} kept, as another row already holds ${britain.e164}`]);
    expect(await numberOf(eveNumber.id)).toBe(britain.stored);
    expect(await numberOf(fayNumber.id)).toBe(britain.e164);
    expect(await rentedNumberOwner(database.db, britain.e164)).toBe(fay);
  });

  it('runs at the first start only: later starts neither change nor scan the stored numbers', async () => {
    const ada = await newUser();
    const adaNumber = await rented(ada, newZealand.stored, 'NZ');
    await database.migrate();
    const done = await database.db.select().from(dataRepairs).orderBy(asc(dataRepairs.name));
    expect(done).toEqual([{ name: 'stored-numbers-e164', doneAt: expect.any(Date) }]);

    // A trunk-prefixed row that a later start would rewrite, were it to scan again.
    const bob = await newUser();
    const bobNumber = await rented(bob, australia.stored, 'AU');
    expect(await database.migrate()).toEqual([]);

    expect(await numberOf(adaNumber.id)).toBe(newZealand.e164);
    expect(await numberOf(bobNumber.id)).toBe(australia.stored);
    expect(await database.db.select().from(dataRepairs)).toEqual(done);
  });
});
