import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, TEST_PASSWORD } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';
import { twoFactor } from './schema';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

const browser = () => new TestBrowser(testApp.app);
type Answer = Awaited<ReturnType<TestBrowser['post']>>;

const SIGN_IN_REFUSED = 'Too many failed sign-in attempts from this device.';
const CODES_REFUSED = 'Too many wrong codes for this account.';

async function signUp() {
  const email = uniqueEmail('owner');
  const response = await browser().post('/api/v1/auth/sign-up', { fullName: 'Owner', email, password: TEST_PASSWORD });
  expect(response.statusCode, response.body).toBe(201);
  return email;
}

/**
 * A 429 for `reason` from a window of `windowSec` that began at `since` or later: Retry-After counts down
 * from the window's start (each attempt hashes a password, which takes its time on a busy machine), and
 * the message gives the same wait in minutes.
 */
function expectRefusal(response: Answer, reason: string, windowSec: number, since: number) {
  expect(response.statusCode, response.body).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(windowSec - (Date.now() - since) / 1000));
  expect(retryAfter).toBeLessThanOrEqual(windowSec);
  expect(response.json().error).toEqual({ code: 'rate_limited', message: `${reason} Try again in ${Math.ceil(retryAfter / 60)} minutes.` });
}

// Every attempt hashes a password: on a busy machine a test of tens of them outlasts the default timeout.
describe('sign-in limits', { timeout: 90_000 }, () => {
  it("count failures per account and address: ten from one address leave the owner's sign-in from another working", async () => {
    const email = await signUp();
    const attacker = browser();
    const since = Date.now();
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push(await attacker.post('/api/v1/auth/sign-in', { email, password: `guess number ${i}` }));

    const owner = await browser().post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json()).toMatchObject({ status: 'signed-in', user: { email } });

    expect(answers.map((response) => response.statusCode)).toEqual([...Array<number>(9).fill(401), 429]);
    expectRefusal(answers[9]!, SIGN_IN_REFUSED, 900, since);
    // That address is done with this account for the window, right password or not.
    expectRefusal(await attacker.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD }), SIGN_IN_REFUSED, 900, since);
  });

  it('stop one address after 100 failures across accounts, and say how long to wait', async () => {
    const owner = await signUp();
    const attacker = browser();
    const since = Date.now();
    const answers = [];
    // Four guesses at each of 25 addresses: no account reaches its own limit.
    for (let i = 0; i < 100; i += 1) answers.push(await attacker.post('/api/v1/auth/sign-in', { email: `victim-${i % 25}@example.com`, password: 'Password1!' }));
    expect(answers.map((response) => response.statusCode)).toEqual([...Array<number>(99).fill(401), 429]);
    expectRefusal(answers[99]!, SIGN_IN_REFUSED, 900, since);

    expectRefusal(await attacker.post('/api/v1/auth/sign-in', { email: owner, password: TEST_PASSWORD }), SIGN_IN_REFUSED, 900, since);
    expect((await browser().post('/api/v1/auth/sign-in', { email: owner, password: TEST_PASSWORD })).statusCode).toBe(200);
  }, 240_000);

  it('count the addresses of one IPv6 /64 network as one', async () => {
    const email = await signUp();
    const from = (address: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in',
        remoteAddress: address,
        headers: { origin: 'http://localhost:3000' },
        payload: { email, password: 'another guess' },
      });
    const answers = [];
    for (let i = 1; i <= 10; i += 1) answers.push((await from(`2001:db8:7:7::${i.toString(16)}`)).statusCode);
    expect(answers).toEqual([...Array<number>(9).fill(401), 429]);
    expect((await from('2001:db8:7:8::1')).statusCode).toBe(401);
  });

  it("do not count a successful sign-in, and forget that address's mistakes for the account", async () => {
    const email = await signUp();
    const laptop = browser();
    const wrong = async () => (await laptop.post('/api/v1/auth/sign-in', { email, password: 'a typo in it' })).statusCode;
    for (let i = 0; i < 9; i += 1) expect(await wrong()).toBe(401);
    expect((await laptop.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 9; i += 1) expect(await wrong()).toBe(401);
    expect(await wrong()).toBe(429);
  });
});

const secretOf = (totpUri: string) => new URL(totpUri).searchParams.get('secret')!;

/** A user with an authenticator confirmed. */
async function twoFactorUser() {
  const { browser: settings, email, userId } = await newSignedInUser(testApp.app);
  const enable = await settings.post('/api/v1/account/two-factor/enable', { password: TEST_PASSWORD });
  expect(enable.statusCode, enable.body).toBe(200);
  const secret = secretOf(enable.json().totpUri);
  const confirm = await settings.post('/api/v1/account/two-factor/confirm', { code: await generate({ secret }) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { email, userId, secret };
}

/** A six-digit code the authenticator shows at none of the time steps the server accepts now. */
async function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 1000);
  const valid = await Promise.all([-30, 0, 30].map((offset) => generate({ secret, epoch: now + offset })));
  return ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code))!;
}

/** A new browser, so a new address, past the password step of `email`'s sign-in. */
async function atTheCodeStep(email: string) {
  const tab = browser();
  const response = await tab.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
  expect(response.json()).toEqual({ status: 'two-factor-required' });
  return tab;
}

describe('two-factor limits', { timeout: 90_000 }, () => {
  it('count wrong codes per user, whichever addresses they come from', async () => {
    const { email, secret } = await twoFactorUser();
    const since = Date.now();
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push(await (await atTheCodeStep(email)).post('/api/v1/auth/two-factor', { code: await wrongCode(secret) }));
    expect(answers.map((response) => response.statusCode)).toEqual([...Array<number>(9).fill(401), 429]);
    expectRefusal(answers[9]!, CODES_REFUSED, 900, since);

    const right = await (await atTheCodeStep(email)).post('/api/v1/auth/two-factor', { code: await generate({ secret }) });
    expectRefusal(right, CODES_REFUSED, 900, since);
  });

  it('end a pending sign-in after five wrong codes, asking for the password again', async () => {
    const { email, secret } = await twoFactorUser();
    const tab = await atTheCodeStep(email);
    for (let i = 0; i < 5; i += 1) expect((await tab.post('/api/v1/auth/two-factor', { code: await wrongCode(secret) })).statusCode).toBe(401);
    const sixth = await tab.post('/api/v1/auth/two-factor', { code: await generate({ secret }) });
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json().error).toEqual({ code: 'two_factor_expired', message: 'Too many wrong codes for this sign-in. Please log in again.' });
  });

  it("say how long better-auth's own lock of the second factor lasts", async () => {
    const { email, userId, secret } = await twoFactorUser();
    const since = Date.now();
    await testApp.database.db
      .update(twoFactor)
      .set({ lockedUntil: new Date(since + 7 * 60_000) })
      .where(eq(twoFactor.userId, userId));
    const response = await (await atTheCodeStep(email)).post('/api/v1/auth/two-factor', { code: await generate({ secret }) });
    expectRefusal(response, CODES_REFUSED, 420, since);
  });
});
