import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, linkIn, TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';
import { session, user, verification } from './schema';

const mailer = capturingMailer();
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer });
});
afterAll(() => testApp.close());

const browser = () => new TestBrowser(testApp.app);
// Strong enough to be accepted (decision 014).
const PASSWORD = 'velvet harbour lantern 42';
const NEW_PASSWORD = 'tangerine orbit quarry 7';

async function signUp(email = uniqueEmail(), fullName = 'Ada Lovelace', password = PASSWORD) {
  const response = await browser().post('/api/v1/auth/sign-up', { fullName, email, password });
  expect(response.statusCode, response.body).toBe(201);
  return email;
}

async function signedIn(email: string, password = PASSWORD) {
  const tab = browser();
  const response = await tab.post('/api/v1/auth/sign-in', { email, password });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().status).toBe('signed-in');
  return tab;
}

async function userCount() {
  const [row] = await testApp.database.db.select({ n: count() }).from(user);
  return row!.n;
}

describe('sign-up', () => {
  it('stores the full name, sends a confirmation email, and leaves the person signed out', async () => {
    const email = uniqueEmail('ada');
    const tab = browser();
    const response = await tab.post('/api/v1/auth/sign-up', { fullName: 'Ada Lovelace', email, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ emailVerificationRequired: false });
    const [row] = await testApp.database.db.select().from(user).where(eq(user.email, email));
    expect(row).toMatchObject({ name: 'Ada Lovelace', emailVerified: false });
    const mail = mailer.lastTo(email);
    expect(mail.subject).toBe('Confirm your Voxline email address');
    expect(linkIn(mail).pathname).toBe('/api/auth/verify-email');
    expect((await tab.get('/api/v1/session')).json()).toBeNull();
  });

  it.each([
    ['a missing full name', { email: 'x@example.com', password: PASSWORD }, 'fullName'],
    ['a missing email', { fullName: 'A', password: PASSWORD }, 'email'],
    ['a missing password', { fullName: 'A', email: 'x@example.com' }, 'password'],
    ['a name of the wrong type', { fullName: 42, email: 'x@example.com', password: PASSWORD }, 'fullName'],
    ['a 10 kB name', { fullName: 'n'.repeat(10_000), email: 'x@example.com', password: PASSWORD }, 'fullName'],
    ['an invalid email', { fullName: 'A', email: 'not-an-email', password: PASSWORD }, 'email'],
    ['a short password', { fullName: 'A', email: 'x@example.com', password: 'short' }, 'password'],
    ['an unknown field', { fullName: 'A', email: 'x@example.com', password: PASSWORD, role: 'admin' }, ''],
  ])('refuses %s with 400 naming the field, storing nothing', async (_label, body, field) => {
    const before = await userCount();
    const response = await browser().post('/api/v1/auth/sign-up', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_input');
    if (field) expect(response.json().error.field).toBe(field);
    expect(await userCount()).toBe(before);
  });

  it('explains a weak password', async () => {
    const response = await browser().post('/api/v1/auth/sign-up', { fullName: 'A', email: uniqueEmail(), password: 'short' });
    expect(response.json().error.message).toBe('password: Password must be at least 10 characters');
  });

  it('answers a second sign-up with a taken address like a new one, without a second account', async () => {
    const email = await signUp();
    const before = await userCount();
    const again = await browser().post('/api/v1/auth/sign-up', { fullName: 'Impostor', email, password: NEW_PASSWORD });
    expect(again.statusCode).toBe(201);
    expect(await userCount()).toBe(before);
  });
});

describe('sign-in and the session', () => {
  it('signs in, reports the user on GET /session, and keeps the session in an httpOnly cookie', async () => {
    const email = await signUp(uniqueEmail(), 'Grace Hopper');
    const tab = browser();
    const response = await tab.post('/api/v1/auth/sign-in', { email, password: PASSWORD });
    expect(response.json()).toMatchObject({ status: 'signed-in', user: { email, fullName: 'Grace Hopper' } });
    const cookie = response.cookies.find((c) => c.name === 'voxline.session_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const current = await tab.get('/api/v1/session');
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual({ user: { id: expect.any(String), email, fullName: 'Grace Hopper' }, isAdmin: false });
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const email = await signUp();
    const wrong = await browser().post('/api/v1/auth/sign-in', { email, password: 'not the password' });
    const unknown = await browser().post('/api/v1/auth/sign-in', { email: uniqueEmail('nobody'), password: PASSWORD });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'invalid_credentials', message: 'Invalid email or password' } });
    }
  });

  it('refuses a sign-in with missing fields', async () => {
    const response = await browser().post('/api/v1/auth/sign-in', { email: 'a@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.field).toBe('password');
  });

  it('ends a session after 7 days without use, and renews one that is used', async () => {
    const email = await signUp();
    const tab = await signedIn(email);
    const [row] = await testApp.database.db.select().from(session).innerJoin(user, eq(user.id, session.userId)).where(eq(user.email, email));
    const sessionId = row!.session.id;
    const lifetime = row!.session.expiresAt.getTime() - row!.session.createdAt.getTime();
    expect(lifetime).toBeGreaterThan(6.9 * 86_400_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 86_400_000 + 1000);

    // Used two days later: renewed for another 7 days.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await testApp.database.db.update(session).set({ updatedAt: twoDaysAgo, expiresAt: new Date(Date.now() + 5 * 86_400_000) }).where(eq(session.id, sessionId));
    expect((await tab.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });
    const [renewed] = await testApp.database.db.select().from(session).where(eq(session.id, sessionId));
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);

    // Idle past its expiry: gone.
    await testApp.database.db.update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.id, sessionId));
    expect((await tab.get('/api/v1/session')).json()).toBeNull();
  });

  it('signs out every session of the user, and counts a sign-out without a session as success', async () => {
    const email = await signUp();
    const laptop = await signedIn(email);
    const phone = await signedIn(email);
    const out = await laptop.post('/api/v1/auth/sign-out');
    expect(out.statusCode).toBe(200);
    expect((await laptop.get('/api/v1/session')).json()).toBeNull();
    expect((await phone.get('/api/v1/session')).json()).toBeNull();
    const again = await laptop.post('/api/v1/auth/sign-out');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true });
  });

  it('refuses state-changing requests from another origin', async () => {
    const email = await signUp();
    const evil = new TestBrowser(testApp.app, 'https://evil.example');
    const response = await evil.post('/api/v1/auth/sign-in', { email, password: PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden_origin');
  });
});

describe('confirming the email address', () => {
  it('marks the address confirmed when the link is followed', async () => {
    const email = await signUp();
    const link = linkIn(mailer.lastTo(email));
    const response = await browser().get(`${link.pathname}${link.search}`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth');
    const [row] = await testApp.database.db.select().from(user).where(eq(user.email, email));
    expect(row!.emailVerified).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address has an account, and mails only a real one', async () => {
    const email = await signUp();
    const sentBefore = mailer.sent.length;
    const known = await browser().post('/api/v1/auth/password-reset', { email });
    const unknown = await browser().post('/api/v1/auth/password-reset', { email: uniqueEmail('ghost') });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(mailer.sent.length).toBe(sentBefore + 1);
    expect(mailer.sent.at(-1)!.to).toBe(email);
  });

  it('sets a new password through the emailed link, which works once', async () => {
    const email = await signUp();
    const tab = await signedIn(email);
    await browser().post('/api/v1/auth/password-reset', { email });
    const link = linkIn(mailer.lastTo(email));
    expect(link.pathname).toBe('/auth');
    expect(link.searchParams.get('tab')).toBe('updatePassword');
    const token = link.searchParams.get('token')!;

    const reset = await browser().post('/api/v1/auth/password-reset/confirm', { token, newPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect((await tab.get('/api/v1/session')).json()).toBeNull();
    expect((await browser().post('/api/v1/auth/sign-in', { email, password: PASSWORD })).statusCode).toBe(401);
    await signedIn(email, NEW_PASSWORD);

    const reused = await browser().post('/api/v1/auth/password-reset/confirm', { token, newPassword: `${NEW_PASSWORD} again` });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toEqual({ code: 'invalid_token', message: 'This reset link is invalid or has expired', field: 'token' });
  });

  it('refuses a link older than one hour', async () => {
    const email = await signUp();
    await browser().post('/api/v1/auth/password-reset', { email });
    const token = linkIn(mailer.lastTo(email)).searchParams.get('token')!;
    const [row] = await testApp.database.db.select().from(verification).where(eq(verification.identifier, `reset-password:${token}`));
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(lifetime - 3_600_000)).toBeLessThan(5_000);
    await testApp.database.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(like(verification.identifier, 'reset-password:%'), eq(verification.identifier, `reset-password:${token}`)));
    const response = await browser().post('/api/v1/auth/password-reset/confirm', { token, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_token');
  });

  it('limits reset requests per address', async () => {
    const email = await signUp();
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt += 1) answers.push((await browser().post('/api/v1/auth/password-reset', { email })).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
  });
});

describe('when email confirmation is required', () => {
  it('refuses log-in until the link is followed', async () => {
    const strictMailer = capturingMailer();
    const strict = await buildTestApp({ env: { REQUIRE_EMAIL_VERIFICATION: 'true' }, mailer: strictMailer });
    try {
      const email = uniqueEmail('strict');
      const signUpResponse = await new TestBrowser(strict.app).post('/api/v1/auth/sign-up', { fullName: 'Strict', email, password: PASSWORD });
      expect(signUpResponse.json()).toEqual({ emailVerificationRequired: true });
      const refused = await new TestBrowser(strict.app).post('/api/v1/auth/sign-in', { email, password: PASSWORD });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('email_not_verified');

      const link = linkIn(strictMailer.lastTo(email));
      await new TestBrowser(strict.app).get(`${link.pathname}${link.search}`);
      const allowed = await new TestBrowser(strict.app).post('/api/v1/auth/sign-in', { email, password: PASSWORD });
      expect(allowed.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
