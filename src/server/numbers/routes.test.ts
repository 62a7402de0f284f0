import { eq, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { createLocalCarrier } from '../providers/telephony/local/local-carrier';
import { TelephonyError, type TelephonyProvider } from '../providers/telephony/telephony-provider';
import { calls } from '../calls/schema';
import { extendSubscription } from '../plans/service';
import { subscriptions } from '../plans/schema';
import { phoneNumbers } from './schema';
import { findRentedNumbers } from './service';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

type Browser = TestBrowser;

async function search(browser: Browser, query = 'country=US&pattern=415') {
  const response = await browser.get(`/api/v1/numbers/available?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().numbers as { phoneNumber: string; country: string; cost: string; currency: string }[];
}

async function rentFirst(browser: Browser, body: Record<string, unknown> = {}) {
  const [offer] = await search(browser);
  const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer!.phoneNumber, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; phoneNumber: string; friendlyName: string | null };
}

const listOf = async (browser: Browser) => (await browser.get('/api/v1/numbers')).json().numbers as { id: string; phoneNumber: string; friendlyName: string | null }[];

describe('every numbers route', () => {
  it('needs a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await anonymous.get('/api/v1/numbers/available?country=US')).statusCode).toBe(401);
    expect((await anonymous.get('/api/v1/numbers')).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/numbers', { country: 'US', phoneNumber: '+14152007001' })).statusCode).toBe(401);
    expect((await anonymous.patch(`/api/v1/numbers/${id}`, { friendlyName: 'x' })).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/v1/numbers/${id}`)).statusCode).toBe(401);
  });
});

describe('GET /api/v1/numbers/available', () => {
  it('offers 10 valid US numbers starting with the pattern 415, with a monthly cost', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const numbers = await search(browser);
    expect(numbers).toHaveLength(10);
    for (const number of numbers) {
      expect(number.phoneNumber).toMatch(/^\+1415\d{7}$/);
      expect(parsePhoneNumberFromString(number.phoneNumber)?.isValid()).toBe(true);
      expect(number).toMatchObject({ country: 'US', cost: '1.00', currency: 'USD' });
    }
  });

  it('understands a trunk prefix, the country code, formatting and a lower-case country', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    for (const query of ['country=gb&pattern=020', 'country=GB&pattern=%2B44%2020', 'country=GB&pattern=20']) {
      const numbers = await search(browser, query);
      expect(numbers.length, query).toBeGreaterThan(0);
      for (const number of numbers) expect(number.phoneNumber, query).toMatch(/^\+4420\d{8}$/);
    }
    for (const number of await search(browser, 'country=US&pattern=(415)%20')) expect(number.phoneNumber).toMatch(/^\+1415/);
  });

  it('searches the US when no country is given, and the whole country without a pattern', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const numbers = await search(browser, '');
    expect(numbers).toHaveLength(10);
    for (const number of numbers) expect(parsePhoneNumberFromString(number.phoneNumber)?.country).toBe('US');
  });

  it('answers an empty list when nothing matches', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    expect(await search(browser, 'country=US&pattern=0')).toEqual([]);
  });

  it.each([
    ['an unknown country', 'country=XX', 'country', 'country: Choose one of the listed countries'],
    ['a country outside the list', 'country=CN', 'country', 'country: Choose one of the listed countries'],
    ['a pattern with letters', 'country=US&pattern=abc', 'pattern', 'pattern: Pattern may contain digits only'],
    ['a 4 kB pattern (longer URLs answer 414)', `country=US&pattern=${'1'.repeat(4_000)}`, 'pattern', 'pattern: Pattern must be at most 24 characters'],
  ])('refuses %s with 400 naming the field', async (_label, query, field, message) => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.get(`/api/v1/numbers/available?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'invalid_input', message, field });
  });
});

describe('renting, naming and releasing a number', () => {
  it('rents a searched number with a friendly name; it is listed active and no longer offered', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const offers = await search(browser);
    const chosen = offers[3]!;
    const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: chosen.phoneNumber, friendlyName: '  Work line  ' });
    expect(response.statusCode, response.body).toBe(201);
    const rented = response.json();
    expect(rented).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      phoneNumber: chosen.phoneNumber,
      friendlyName: 'Work line',
      active: true,
      country: 'US',
      monthlyCost: '1.00',
      currency: 'USD',
      createdAt: expect.any(String),
    });
    expect(await listOf(browser)).toEqual([rented]);

    const other = await newSignedInUser(testApp.app);
    const offeredNow = await search(other.browser);
    expect(offeredNow.map((number) => number.phoneNumber)).not.toContain(chosen.phoneNumber);
    expect(offeredNow).toHaveLength(10);
  });

  it('never rents one number twice: a second renter gets 409 Number no longer available', async () => {
    const ada = await newSignedInUser(testApp.app);
    const bob = await newSignedInUser(testApp.app);
    // Room for a second number, so that the limit of Free is not what refuses Ada's own number.
    await extendSubscription(testApp.database.db, ada.userId, 'premium', new Date());
    const rented = await rentFirst(ada.browser);
    const again = await bob.browser.post('/api/v1/numbers', { country: 'US', phoneNumber: rented.phoneNumber });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: 'number_unavailable', message: 'Number no longer available', field: 'phoneNumber' });
    expect(await listOf(bob.browser)).toEqual([]);
    const mine = await ada.browser.post('/api/v1/numbers', { country: 'US', phoneNumber: rented.phoneNumber });
    expect(mine.statusCode).toBe(409);
  });

  it('gives a number to exactly one of two users renting it at the same moment', async () => {
    const ada = await newSignedInUser(testApp.app);
    const bob = await newSignedInUser(testApp.app);
    const [offer] = await search(ada.browser, 'country=US&pattern=212');
    const body = { country: 'US', phoneNumber: offer!.phoneNumber };
    const answers = await Promise.all([ada.browser.post('/api/v1/numbers', body), bob.browser.post('/api/v1/numbers', body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().error.message).toBe('Number no longer available');
    const rows = await testApp.database.db.select().from(phoneNumbers);
    expect(rows.filter((row) => row.phoneNumber === offer!.phoneNumber)).toHaveLength(1);
    const owners = [(await listOf(ada.browser)).length, (await listOf(bob.browser)).length].sort();
    expect(owners).toEqual([0, 1]);
  });

  it('rents a number written with its trunk prefix (+64 0 9…) as the E.164 a caller dials (+64 9…)', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/numbers', { country: 'NZ', phoneNumber: '+64093869328' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().phoneNumber).toBe('+6493869328');
  });

  it('refuses the fictional 555-01xx numbers and the sound-test line', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: '+14155550100' });
    expect(response.statusCode).toBe(409);
    expect(await listOf(browser)).toEqual([]);
  });

  it('renames a number and clears its name', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const rented = await rentFirst(browser);
    const renamed = await browser.patch(`/api/v1/numbers/${rented.id}`, { friendlyName: 'Sales' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: rented.id, friendlyName: 'Sales' });
    expect((await browser.patch(`/api/v1/numbers/${rented.id}`, { friendlyName: '' })).json().friendlyName).toBeNull();
    expect((await browser.patch(`/api/v1/numbers/${rented.id}`, { friendlyName: null })).json().friendlyName).toBeNull();
  });

  it('releases a number, which can then be rented again', async () => {
    const ada = await newSignedInUser(testApp.app);
    const rented = await rentFirst(ada.browser);
    const release = await ada.browser.delete(`/api/v1/numbers/${rented.id}`);
    expect(release.statusCode, release.body).toBe(200);
    expect(release.json()).toEqual({ ok: true });
    expect(await listOf(ada.browser)).toEqual([]);
    expect((await ada.browser.delete(`/api/v1/numbers/${rented.id}`)).statusCode).toBe(404);

    const bob = await newSignedInUser(testApp.app);
    const again = await bob.browser.post('/api/v1/numbers', { country: 'US', phoneNumber: rented.phoneNumber });
    expect(again.statusCode, again.body).toBe(201);
  });

  // docs/product.md §2: Call History shows such a call's number as Inactive, from these two answers.
  it('forgets a released number, while the calls on it stay in the user\'s history naming it', async () => {
    const ada = await newSignedInUser(testApp.app);
    const rented = await rentFirst(ada.browser);
    const ended = { userId: ada.userId, state: 'ended' as const, outcome: 'completed' as const, metered: false, endedAt: new Date(), durationSec: 5 };
    await testApp.database.db.insert(calls).values([
      { ...ended, conversationId: crypto.randomUUID(), direction: 'outbound', fromNumber: rented.phoneNumber, toNumber: '+19175550177' },
      { ...ended, conversationId: crypto.randomUUID(), direction: 'inbound', fromNumber: '+17185550188', toNumber: rented.phoneNumber },
    ]);

    expect((await ada.browser.delete(`/api/v1/numbers/${rented.id}`)).statusCode).toBe(200);
    expect(await testApp.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, rented.phoneNumber))).toEqual([]);
    expect(await listOf(ada.browser)).toEqual([]);
    const history = await ada.browser.get('/api/v1/calls');
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ direction: 'outbound', from: rented.phoneNumber }),
        expect.objectContaining({ direction: 'inbound', to: rented.phoneNumber }),
      ]),
    );
  });

  it.each([
    ['an unknown country', { country: 'XX', phoneNumber: '+14152007001' }, 'country'],
    ['a missing country', { phoneNumber: '+14152007001' }, 'country'],
    ['a number of another country', { country: 'GB', phoneNumber: '+14152007001' }, 'phoneNumber'],
    ['a number of another country sharing the code', { country: 'US', phoneNumber: '+14165550123' }, 'phoneNumber'],
    ['a number that is not digits', { country: 'US', phoneNumber: 'call me' }, 'phoneNumber'],
    ['a number of the wrong type', { country: 'US', phoneNumber: 14152007001 }, 'phoneNumber'],
    ['a missing number', { country: 'US' }, 'phoneNumber'],
    ['a number without its +', { country: 'US', phoneNumber: '14152007001' }, 'phoneNumber'],
    ['the old msisdn field', { country: 'US', msisdn: '14152007001' }, 'phoneNumber'],
    ['a 10 kB friendly name', { country: 'US', phoneNumber: '+14152007001', friendlyName: 'x'.repeat(10_000) }, 'friendlyName'],
    ['a friendly name of the wrong type', { country: 'US', phoneNumber: '+14152007001', friendlyName: 7 }, 'friendlyName'],
    ['an unknown field', { country: 'US', phoneNumber: '+14152007001', userId: 'someone-else' }, undefined],
  ])('refuses %s with 400, renting nothing', async (_label, body, field) => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/numbers', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_input');
    if (field) expect(response.json().error.field).toBe(field);
    expect(await listOf(browser)).toEqual([]);
    expect(await findRentedNumbers(testApp.database.db, ['+14152007001'])).toEqual(new Set());
  });

  it.each(['14152007001', '+1 415 200 7001', '+014152007001', '+1415'])('refuses %s, which is not E.164, with an error naming phoneNumber', async (phoneNumber) => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'invalid_input',
      message: 'phoneNumber: Phone number must be in E.164 form: + and the country code, e.g. +14155550123',
      field: 'phoneNumber',
    });
  });

  it.each([
    ['a 10 kB name', { friendlyName: 'x'.repeat(10_000) }],
    ['a missing name', {}],
    ['an unknown field', { friendlyName: 'A', active: false }],
  ])('refuses to rename with %s, changing nothing', async (_label, body) => {
    const { browser } = await newSignedInUser(testApp.app);
    const rented = await rentFirst(browser, { friendlyName: 'Kept' });
    expect((await browser.patch(`/api/v1/numbers/${rented.id}`, body)).statusCode).toBe(400);
    expect((await listOf(browser))[0]!.friendlyName).toBe('Kept');
  });
});

describe('numbers per plan', () => {
  const freeLimit = { code: 'number_limit_reached', message: 'Your Free plan includes 1 number. Upgrade to Premium for up to 3.' };
  const limitOf = async (browser: Browser) => (await browser.get('/api/v1/numbers')).json().limit as unknown;

  async function rentNth(browser: Browser, index: number) {
    const offers = await search(browser, 'country=US&pattern=917');
    return browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offers[index]!.phoneNumber });
  }

  it('lets a Free user hold 1 number: the second is refused with 403 naming the plan that allows more, and nothing is rented', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    expect(await limitOf(browser)).toEqual({ tier: 'free', maxNumbers: 1 });
    const first = await rentFirst(browser);
    const [, second] = await search(browser, 'country=US&pattern=646');
    const refused = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: second!.phoneNumber });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual(freeLimit);
    expect((await listOf(browser)).map((number) => number.id)).toEqual([first.id]);
    expect(await findRentedNumbers(testApp.database.db, [second!.phoneNumber])).toEqual(new Set());
  });

  it('frees the place when a number is released', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const first = await rentFirst(browser);
    expect((await rentNth(browser, 1)).statusCode).toBe(403);
    expect((await browser.delete(`/api/v1/numbers/${first.id}`)).statusCode).toBe(200);
    const again = await rentNth(browser, 1);
    expect(again.statusCode, again.body).toBe(201);
  });

  it('lets a Premium user hold 3, then points to Platinum', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    await extendSubscription(testApp.database.db, userId, 'premium', new Date());
    expect(await limitOf(browser)).toEqual({ tier: 'premium', maxNumbers: 3 });
    for (const index of [0, 1, 2]) expect((await rentNth(browser, index)).statusCode).toBe(201);
    const fourth = await rentNth(browser, 3);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().error).toEqual({ code: 'number_limit_reached', message: 'Your Premium plan includes 3 numbers. Upgrade to Platinum for up to 10.' });
    expect(await listOf(browser)).toHaveLength(3);
  });

  it('keeps the numbers of a plan that expired, but rents no more until the user is under the Free limit', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    await extendSubscription(testApp.database.db, userId, 'premium', new Date());
    for (const index of [0, 1]) expect((await rentNth(browser, index)).statusCode).toBe(201);
    await testApp.database.db.update(subscriptions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(subscriptions.userId, userId));

    const kept = await listOf(browser);
    expect(kept).toHaveLength(2);
    expect(await limitOf(browser)).toEqual({ tier: 'free', maxNumbers: 1 });
    expect((await rentNth(browser, 2)).json().error).toEqual(freeLimit);
    expect((await browser.delete(`/api/v1/numbers/${kept[0]!.id}`)).statusCode).toBe(200);
    expect((await rentNth(browser, 2)).json().error).toEqual(freeLimit);
    expect((await browser.delete(`/api/v1/numbers/${kept[1]!.id}`)).statusCode).toBe(200);
    expect((await rentNth(browser, 2)).statusCode).toBe(201);
  });

  it('lets only one of three rents sent at the same moment through for a Free user', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const offers = await search(browser, 'country=US&pattern=718');
    const answers = await Promise.all(offers.slice(0, 3).map((offer) => browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer.phoneNumber })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 403, 403]);
    const rows = await testApp.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.userId, userId));
    expect(rows).toHaveLength(1);
  });

  // PGlite runs one transaction at a time; PostgreSQL runs them side by side, as several instances do.
  it.skipIf(!process.env.TEST_DATABASE_URL)('counts rents of one user one after the other even when they reach PostgreSQL together', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const offers = await search(browser, 'country=US&pattern=332');
    const { db } = testApp.database;
    const waitingOnLocks = async () => {
      const result = (await db.execute(sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as unknown as { rows: { waiting: number }[] };
      return result.rows[0]?.waiting ?? 0;
    };
    let rents: Promise<{ statusCode: number }[]> | undefined;
    await db.transaction(async (tx) => {
      // Every rent stops at the plan lookup until this lets go, so that they all go on at once.
      await tx.execute(sql`lock table subscriptions in access exclusive mode`);
      rents = Promise.all(offers.slice(0, 3).map((offer) => browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer.phoneNumber })));
      await until(async () => (await waitingOnLocks()) === 3);
    });
    expect((await rents!).map((answer) => answer.statusCode).sort()).toEqual([201, 403, 403]);
    expect(await db.select().from(phoneNumbers).where(eq(phoneNumbers.userId, userId))).toHaveLength(1);
  });
});

describe('another user\'s number', () => {
  it('is never listed, renamed or released: 404, exactly like a missing one', async () => {
    const ada = await newSignedInUser(testApp.app);
    const eve = await newSignedInUser(testApp.app);
    const rented = await rentFirst(ada.browser, { friendlyName: 'Ada' });
    expect(await listOf(eve.browser)).toEqual([]);

    for (const id of [rented.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const rename = await eve.browser.patch(`/api/v1/numbers/${id}`, { friendlyName: 'Eve' });
      expect(rename.statusCode, id).toBe(404);
      expect(rename.json().error).toEqual({ code: 'not_found', message: 'Phone number not found' });
      expect((await eve.browser.delete(`/api/v1/numbers/${id}`)).statusCode, id).toBe(404);
    }
    expect(await listOf(ada.browser)).toEqual([expect.objectContaining({ id: rented.id, friendlyName: 'Ada' })]);
  });
});

describe('when the provider fails', () => {
  let failing: TestApp;
  const local = createLocalCarrier({ seed: 'failures' });
  const fail = { search: false, rent: false, inbound: false, release: false };
  const released: string[] = [];
  const refusal = () => new TelephonyError('rejected', 'Vonage refused to sell the number: method failed');
  const provider: TelephonyProvider = {
    name: 'vonage',
    searchNumbers: (search) => (fail.search ? Promise.reject(new TelephonyError('unreachable', 'Vonage could not be reached: connect ECONNREFUSED')) : local.searchNumbers(search)),
    rentNumber: (number) => (fail.rent ? Promise.reject(refusal()) : local.rentNumber(number)),
    configureInboundVoice: async () => {
      if (fail.inbound) throw new TelephonyError('rejected', 'Vonage answered 500: internal error');
    },
    releaseNumber: async (number) => {
      if (fail.release) throw new TelephonyError('rejected', 'Vonage refused to release the number: method failed');
      released.push(number.phoneNumber);
    },
  };

  beforeAll(async () => {
    failing = await buildTestApp({ mailer: capturingMailer(), telephony: provider });
  });
  afterAll(() => failing.close());

  const reset = () => Object.assign(fail, { search: false, rent: false, inbound: false, release: false });

  it('a search answers 502 with the provider\'s reason', async () => {
    reset();
    const { browser } = await newSignedInUser(failing.app);
    fail.search = true;
    const response = await browser.get('/api/v1/numbers/available?country=US');
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toEqual({ code: 'provider_failed', message: 'Vonage could not be reached: connect ECONNREFUSED' });
  });

  it('a refused purchase answers 502 and rents nothing', async () => {
    reset();
    const { browser } = await newSignedInUser(failing.app);
    const [offer] = await search(browser);
    fail.rent = true;
    const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer!.phoneNumber });
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toEqual({ code: 'provider_failed', message: 'Vonage refused to sell the number: method failed' });
    expect(await listOf(browser)).toEqual([]);
    expect(await findRentedNumbers(failing.database.db, [offer!.phoneNumber])).toEqual(new Set());
    fail.rent = false;
    expect((await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer!.phoneNumber })).statusCode).toBe(201);
  });

  it('a failed routing update gives the bought number back, answers 502 and rents nothing', async () => {
    reset();
    const { browser } = await newSignedInUser(failing.app);
    const [offer] = await search(browser, 'country=US&pattern=646');
    fail.inbound = true;
    const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer!.phoneNumber });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toBe('Vonage answered 500: internal error');
    expect(released).toContain(offer!.phoneNumber);
    expect(await listOf(browser)).toEqual([]);
    expect(await findRentedNumbers(failing.database.db, [offer!.phoneNumber])).toEqual(new Set());
  });

  it('a refused release answers 502 and keeps the number', async () => {
    reset();
    const { browser } = await newSignedInUser(failing.app);
    const rented = await rentFirst(browser);
    fail.release = true;
    const response = await browser.delete(`/api/v1/numbers/${rented.id}`);
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toBe('Vonage refused to release the number: method failed');
    expect(await listOf(browser)).toEqual([expect.objectContaining({ id: rented.id })]);
    fail.release = false;
    expect((await browser.delete(`/api/v1/numbers/${rented.id}`)).statusCode).toBe(200);
  });
});
