import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../tests/support/test-database';
import { user } from '../auth/schema';
import type { DatabaseHandle } from '../db/client';
import { isRentedBy, numberHolder, rentedNumberOwner, rentedNumbersOf } from './number-owners';
import { phoneNumbers, type PhoneNumberStatus } from './schema';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function someone() {
  const id = randomUUID();
  await database.db.insert(user).values({ id, name: 'Number Owner', email: `${id}@example.com` });
  return id;
}

let nextNumber = 4155550100;
async function hold(userId: string, status: PhoneNumberStatus) {
  const phoneNumber = `+1${(nextNumber += 1)}`;
  await database.db.insert(phoneNumbers).values({ userId, phoneNumber, country: 'US', status, provider: 'local' });
  return phoneNumber;
}

describe('number owners', () => {
  it('knows who rented a number, and only a rented one is theirs to call from or to ring', async () => {
    const ada = await someone();
    const bob = await someone();
    const rented = await hold(ada, 'rented');
    const renting = await hold(ada, 'renting');

    expect(await isRentedBy(database.db, ada, rented)).toBe(true);
    expect(await isRentedBy(database.db, bob, rented)).toBe(false);
    expect(await isRentedBy(database.db, ada, renting)).toBe(false);
    expect(await rentedNumberOwner(database.db, rented)).toBe(ada);
    expect(await rentedNumberOwner(database.db, renting)).toBeNull();
    expect(await rentedNumberOwner(database.db, '+14155559999')).toBeNull();
  });

  it('finds the holder of a number in any status', async () => {
    const ada = await someone();
    const releasing = await hold(ada, 'releasing');
    expect(await numberHolder(database.db, releasing)).toBe(ada);
    expect(await numberHolder(database.db, '+14155559998')).toBeNull();
  });

  it('lists the numbers a user has rented, and no other', async () => {
    const ada = await someone();
    const first = await hold(ada, 'rented');
    const second = await hold(ada, 'rented');
    await hold(ada, 'releasing');
    await hold(await someone(), 'rented');
    expect((await rentedNumbersOf(database.db, ada)).sort()).toEqual([first, second].sort());
  });
});
