import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, TEST_PASSWORD } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';
import { account, user } from '../auth/schema';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

const userRow = async (userId: string) => (await testApp.database.db.select().from(user).where(eq(user.id, userId)))[0];

describe('PATCH /api/v1/account', () => {
  it.each([
    ['NUL in the full name', { fullName: 'Ada\u0000' }, 'fullName', 'fullName: Full name must not contain control characters'],
    ['a tab in the full name', { fullName: 'Ada\tLovelace' }, 'fullName', 'fullName: Full name must not contain control characters'],
    ['NUL in the phone number', { phone: '+1 415 555\u0000 0100' }, 'phone', 'phone: Phone number must not contain control characters'],
    ['NUL in the email', { email: 'ada\u0000@example.com' }, 'email', 'email: Email must not contain control characters'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_label, body, field, message) => {
    const { browser, userId } = await newSignedInUser(testApp.app, 'Ada Lovelace');
    const before = await userRow(userId);
    const response = await browser.patch('/api/v1/account', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message, field } });
    expect(await userRow(userId)).toEqual(before);
  });
});

describe('POST /api/v1/account/password', () => {
  const passwordHashOf = async (userId: string) => (await testApp.database.db.select().from(account).where(eq(account.userId, userId)))[0]!.password;

  it.each([
    ['a common password', 'password123', 'newPassword: Too easy to guess. This is a commonly used password. Add more words that are less common.'],
    ['the person’s own name', 'ada lovelace 1815', 'newPassword: Too easy to guess. There should not be any personal or page related data. Add more words that are less common.'],
    ['nine characters', 'kettle-42', 'newPassword: Password must be at least 10 characters'],
  ])('refuses %s with 400 saying why, keeping the old password and the other sessions', async (_label, newPassword, message) => {
    const { browser, email, userId } = await newSignedInUser(testApp.app, 'Ada Lovelace');
    const other = new TestBrowser(testApp.app);
    expect((await other.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD })).statusCode).toBe(200);
    const before = await passwordHashOf(userId);

    const response = await browser.post('/api/v1/account/password', { currentPassword: TEST_PASSWORD, newPassword });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message, field: 'newPassword' } });
    expect(await passwordHashOf(userId)).toBe(before);
    expect((await other.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });
  });
});
