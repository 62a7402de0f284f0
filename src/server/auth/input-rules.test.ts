import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, linkIn, TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';
import { account, user } from './schema';

const mailer = capturingMailer();
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer });
});
afterAll(() => testApp.close());

const browser = () => new TestBrowser(testApp.app);

async function userCount() {
  const [row] = await testApp.database.db.select({ n: count() }).from(user);
  return row!.n;
}

describe('sign-up', () => {
  it.each([
    ['NUL in the full name', { fullName: 'Ada\u0000Lovelace' }, 'fullName', 'fullName: Full name must not contain control characters'],
    ['a newline in the full name', { fullName: 'Ada\nLovelace' }, 'fullName', 'fullName: Full name must not contain control characters'],
    ['NUL in the email', { email: 'ada\u0000@example.com' }, 'email', 'email: Email must not contain control characters'],
    ['NUL in the password', { password: `${TEST_PASSWORD}\u0000` }, 'password', 'password: Password must not contain control characters'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_label, change, field, message) => {
    const before = await userCount();
    const response = await browser().post('/api/v1/auth/sign-up', { fullName: 'Ada Lovelace', email: uniqueEmail(), password: TEST_PASSWORD, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message, field } });
    expect(await userCount()).toBe(before);
  });

  it.each([
    ['nine characters', 'kettle-42', 'password: Password must be at least 10 characters'],
    ['a common password', 'password123', 'password: Too easy to guess. This is a commonly used password. Add more words that are less common.'],
    ['a keyboard row', 'qwertyuiop', 'password: Too easy to guess. This is a frequently used password. Add more words that are less common.'],
    ['the person’s own name', 'ada lovelace 1815', 'password: Too easy to guess. There should not be any personal or page related data. Add more words that are less common.'],
  ])('refuses %s as a password with 400 saying why, storing nothing', async (_label, password, message) => {
    const before = await userCount();
    const response = await browser().post('/api/v1/auth/sign-up', { fullName: 'Ada Lovelace', email: uniqueEmail(), password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message, field: 'password' } });
    expect(await userCount()).toBe(before);
  });
});

describe('password reset confirm', () => {
  async function resetLink(fullName: string) {
    const email = uniqueEmail('reset');
    expect((await browser().post('/api/v1/auth/sign-up', { fullName, email, password: TEST_PASSWORD })).statusCode).toBe(201);
    await browser().post('/api/v1/auth/password-reset', { email });
    return { email, token: linkIn(mailer.lastTo(email)).searchParams.get('token')! };
  }

  const passwordHashOf = async (email: string) => {
    const [row] = await testApp.database.db.select({ password: account.password }).from(account).innerJoin(user, eq(user.id, account.userId)).where(eq(user.email, email));
    return row!.password;
  };

  it('refuses a guessable new password, the account’s own name included, keeping the old one and the link', async () => {
    const { email, token } = await resetLink('Grace Hopper');
    const before = await passwordHashOf(email);
    for (const [newPassword, message] of [
      ['password123', 'newPassword: Too easy to guess. This is a commonly used password. Add more words that are less common.'],
      ['grace hopper 1906', 'newPassword: Too easy to guess. There should not be any personal or page related data. Add more words that are less common.'],
      ['kettle-42', 'newPassword: Password must be at least 10 characters'],
    ]) {
      const response = await browser().post('/api/v1/auth/password-reset/confirm', { token, newPassword });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'invalid_input', message, field: 'newPassword' } });
    }
    expect(await passwordHashOf(email)).toBe(before);

    const accepted = await browser().post('/api/v1/auth/password-reset/confirm', { token, newPassword: 'tangerine orbit quarry 7' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await passwordHashOf(email)).not.toBe(before);
  });

  it('answers an unknown link as such, whatever the password', async () => {
    const response = await browser().post('/api/v1/auth/password-reset/confirm', { token: 'no-such-token', newPassword: 'password123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_token', field: 'token' });
  });

  it('refuses NUL in the token with 400 naming it', async () => {
    const response = await browser().post('/api/v1/auth/password-reset/confirm', { token: 'abc\u0000', newPassword: 'tangerine orbit quarry 7' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message: 'token: Reset link must not contain control characters', field: 'token' } });
  });
});
