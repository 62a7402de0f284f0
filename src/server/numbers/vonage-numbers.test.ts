import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_API_KEY, FAKE_API_SECRET, VonageNumbersFake } from '../../../tests/fakes/vonage/vonage-numbers-fake';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { phoneNumbers } from './schema';

// The whole path under TELEPHONY=vonage: config, the provider chosen in app.ts, the SDK, the fake.
const APPLICATION_ID = '11111111-2222-3333-4444-555555555555';
let fake: VonageNumbersFake;
let testApp: TestApp;

beforeAll(async () => {
  fake = await VonageNumbersFake.start();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  testApp = await buildTestApp({
    mailer: capturingMailer(),
    env: {
      TELEPHONY: 'vonage',
      VONAGE_API_KEY: FAKE_API_KEY,
      VONAGE_API_SECRET: FAKE_API_SECRET,
      VONAGE_APPLICATION_ID: APPLICATION_ID,
      VONAGE_PRIVATE_KEY: privateKey.replace(/\n/g, '\\n'),
      VONAGE_SIGNATURE_SECRET: 'signature-secret',
      VONAGE_REST_URL: fake.url,
      VONAGE_API_URL: fake.url,
    },
  });
});
afterAll(async () => {
  await testApp.close();
  await fake.close();
});
beforeEach(() => {
  fake.balance = 100;
});

describe('numbers through Vonage (TELEPHONY=vonage)', () => {
  it('offers Vonage\'s voice numbers, never a fictional 555-01xx one', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.get('/api/v1/numbers/available?country=US');
    expect(response.statusCode, response.body).toBe(200);
    const numbers = response.json().numbers.map((number: { phoneNumber: string }) => number.phoneNumber);
    expect(numbers).toEqual(expect.arrayContaining(['+14152007001', '+14152007002', '+14152007003']));
    expect(numbers).not.toContain('+12125550199');
    expect(numbers).not.toContain('+12127363100');
    expect(response.json().numbers[0]).toMatchObject({ cost: '0.90', currency: 'EUR' });
  });

  it('rents a number: bought, routed to our application, listed; released: cancelled', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const rent = await browser.post('/api/v1/numbers', { country: 'GB', phoneNumber: '+447400123456', friendlyName: 'London' });
    expect(rent.statusCode, rent.body).toBe(201);
    expect(rent.json()).toMatchObject({ phoneNumber: '+447400123456', friendlyName: 'London', active: true, monthlyCost: '1.25', currency: 'EUR' });
    // E.164 in the app, msisdn on the wire to Vonage.
    expect(fake.requestsTo('POST', '/number/buy').at(-1)!.form).toMatchObject({ country: 'GB', msisdn: '447400123456' });
    expect(fake.owned.get('447400123456')).toMatchObject({ appId: APPLICATION_ID });

    const release = await browser.delete(`/api/v1/numbers/${rent.json().id}`);
    expect(release.statusCode, release.body).toBe(200);
    expect(fake.owned.has('447400123456')).toBe(false);
    expect((await browser.get('/api/v1/numbers')).json().numbers).toEqual([]);
  });

  it('answers 409 when Vonage no longer offers the number, and 502 with the reason when the balance is too low', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    fake.takeNumber('14152007003');
    const gone = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: '+14152007003' });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error.message).toBe('Number no longer available');

    fake.balance = 0;
    const broke = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: '+14152007002' });
    expect(broke.statusCode).toBe(502);
    expect(broke.json().error).toEqual({ code: 'provider_failed', message: 'Vonage refused to sell the number: method failed' });
    expect(await testApp.database.db.select().from(phoneNumbers)).toEqual([]);
  });

  it('cancels the purchase when routing fails, and stores nothing', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    fake.failNext('POST', '/number/update', { status: 401, body: { 'error-code': '401', 'error-code-label': 'authentication failed' } });
    const response = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: '+14152007001' });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toBe("Vonage rejected Voxline's credentials (authentication failed)");
    expect(fake.owned.has('14152007001')).toBe(false);
    expect(fake.requestsTo('POST', '/number/cancel').at(-1)!.form).toMatchObject({ msisdn: '14152007001' });
    expect(await testApp.database.db.select().from(phoneNumbers)).toEqual([]);
  });

  it('lets one of two simultaneous renters buy, and only one purchase is made', async () => {
    const ada = await newSignedInUser(testApp.app);
    const bob = await newSignedInUser(testApp.app);
    const buysBefore = fake.requestsTo('POST', '/number/buy').length;
    const body = { country: 'US', phoneNumber: '+14152007001' };
    const answers = await Promise.all([ada.browser.post('/api/v1/numbers', body), bob.browser.post('/api/v1/numbers', body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(fake.requestsTo('POST', '/number/buy').length - buysBefore).toBe(1);
  });

  it('shows a number Inactive while Vonage does not route it to us, kept on the list when released at Vonage', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const rent = await browser.post('/api/v1/numbers', { country: 'GB', phoneNumber: '+442079460958' });
    expect(rent.statusCode, rent.body).toBe(201);
    const activeFlags = async () => (await browser.get('/api/v1/numbers')).json().numbers.map((number: { active: boolean }) => number.active);
    expect(await activeFlags()).toEqual([true]);

    // Linked to another application in Vonage's dashboard: its calls no longer reach Voxline.
    fake.owned.get('442079460958')!.appId = 'another-application';
    expect(await activeFlags()).toEqual([false]);
    const compat = await browser.post('/functions/v1/vonage-phone', { action: 'listUserNumbers', payload: {} });
    expect(compat.json().numbers.map((number: { active: boolean }) => number.active)).toEqual([false]);
    fake.owned.get('442079460958')!.appId = APPLICATION_ID;
    expect(await activeFlags()).toEqual([true]);

    // Vonage cannot be asked: the list still answers, with the last answer it gave.
    fake.failNext('GET', '/account/numbers', { status: 500, body: { 'error-code': '500', 'error-code-label': 'internal error' } });
    expect(await activeFlags()).toEqual([true]);

    // Released at Vonage (the rental lapsed there): still listed, Inactive, and Release still takes it off.
    fake.owned.delete('442079460958');
    expect(await activeFlags()).toEqual([false]);
    expect((await browser.delete(`/api/v1/numbers/${rent.json().id}`)).statusCode).toBe(200);
    expect(await activeFlags()).toEqual([]);
  });
});
