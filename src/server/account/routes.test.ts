import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, TEST_PASSWORD } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, linkIn, TestBrowser } from '../../../tests/support/test-browser';
import { twoFactor } from '../auth/schema';

const mailer = capturingMailer();
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer });
});
afterAll(() => testApp.close());

const secretOf = (totpUri: string) => new URL(totpUri).searchParams.get('secret')!;

describe('GET and PATCH /api/v1/account', () => {
  it('needs a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    expect((await anonymous.get('/api/v1/account')).statusCode).toBe(401);
    expect((await anonymous.patch('/api/v1/account', { fullName: 'X' })).statusCode).toBe(401);
  });

  it('saves the full name and a phone number in E.164', async () => {
    const { browser, email } = await newSignedInUser(testApp.app, 'Ada');
    const response = await browser.patch('/api/v1/account', { fullName: 'Ada Lovelace', phone: '+1 (415) 555-2671' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      account: { id: expect.any(String), fullName: 'Ada Lovelace', email, emailVerified: false, phone: '+14155552671', twoFactorEnabled: false },
      pendingEmail: null,
    });
    expect((await browser.get('/api/v1/session')).json().user.fullName).toBe('Ada Lovelace');
    const cleared = await browser.patch('/api/v1/account', { phone: '' });
    expect(cleared.json().account.phone).toBeNull();
  });

  it.each([
    ['an invalid phone number', { phone: '12345' }, 'phone'],
    ['a 10 kB name', { fullName: 'x'.repeat(10_000) }, 'fullName'],
    ['an invalid email', { email: 'nope' }, 'email'],
    ['a name of the wrong type', { fullName: ['Ada'] }, 'fullName'],
    ['an unknown field', { role: 'admin' }, undefined],
    ['nothing at all', {}, undefined],
  ])('refuses %s with 400, changing nothing', async (_label, body, field) => {
    const { browser } = await newSignedInUser(testApp.app, 'Unchanged');
    const response = await browser.patch('/api/v1/account', body);
    expect(response.statusCode).toBe(400);
    if (field) expect(response.json().error.field).toBe(field);
    expect((await browser.get('/api/v1/account')).json()).toMatchObject({ fullName: 'Unchanged', phone: null });
  });

  it('changes the email address only once the link sent to the new address is followed', async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const newEmail = `new-${email}`;
    const response = await browser.patch('/api/v1/account', { email: newEmail });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ account: { email }, pendingEmail: newEmail });

    const mail = mailer.lastTo(newEmail);
    expect(mail.subject).toBe('Confirm your new Voxline email address');
    const link = linkIn(mail);
    const follow = await browser.get(`${link.pathname}${link.search}`);
    expect(follow.statusCode).toBe(302);
    expect((await browser.get('/api/v1/account')).json().email).toBe(newEmail);
  });
});

describe('POST /api/v1/account/password', () => {
  // Strong enough to be accepted (decision 014).
  const NEW_PASSWORD = 'tangerine orbit quarry 7';

  it('refuses a wrong current password', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/account/password', { currentPassword: 'not it at all', newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_password', message: 'Current password is incorrect', field: 'currentPassword' });
  });

  it('changes the password, keeps this session and signs the others out', async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const other = new TestBrowser(testApp.app);
    await other.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    const response = await browser.post('/api/v1/account/password', { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.statusCode, response.body).toBe(200);
    expect((await browser.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });
    expect((await other.get('/api/v1/session')).json()).toBeNull();
    expect((await new TestBrowser(testApp.app).post('/api/v1/auth/sign-in', { email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses a new password that is too short', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/account/password', { currentPassword: TEST_PASSWORD, newPassword: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.field).toBe('newPassword');
  });
});

describe('two-factor authentication', () => {
  it('is set up with a QR code and backup codes, confirmed by a first code, then asked for at log-in', async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const wrong = await browser.post('/api/v1/account/two-factor/enable', { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);

    const enable = await browser.post('/api/v1/account/two-factor/enable', { password: TEST_PASSWORD });
    expect(enable.statusCode, enable.body).toBe(200);
    const { totpUri, qrCode, backupCodes } = enable.json();
    expect(totpUri).toMatch(/^otpauth:\/\/totp\/Voxline/);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(backupCodes).toHaveLength(10);
    expect((await browser.get('/api/v1/account')).json().twoFactorEnabled).toBe(false);

    const badConfirm = await browser.post('/api/v1/account/two-factor/confirm', { code: '000000' });
    expect(badConfirm.statusCode).toBe(400);
    const confirm = await browser.post('/api/v1/account/two-factor/confirm', { code: await generate({ secret: secretOf(totpUri) }) });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json().twoFactorEnabled).toBe(true);
    expect((await browser.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });

    const phone = new TestBrowser(testApp.app);
    const first = await phone.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    expect(first.json()).toEqual({ status: 'two-factor-required' });
    expect((await phone.get('/api/v1/session')).json()).toBeNull();
    const wrongCode = await phone.post('/api/v1/auth/two-factor', { code: '123456' === (await generate({ secret: secretOf(totpUri) })) ? '654321' : '123456' });
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongCode.json().error.code).toBe('invalid_code');

    const backup = await phone.post('/api/v1/auth/two-factor', { code: backupCodes[0] });
    expect(backup.statusCode, backup.body).toBe(200);
    expect(backup.json()).toMatchObject({ status: 'signed-in', user: { email } });
    expect((await phone.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });

    // A backup code works once.
    const tablet = new TestBrowser(testApp.app);
    await tablet.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    expect((await tablet.post('/api/v1/auth/two-factor', { code: backupCodes[0] })).statusCode).toBe(401);

    const disable = await browser.post('/api/v1/account/two-factor/disable', { password: TEST_PASSWORD });
    expect(disable.statusCode, disable.body).toBe(200);
    expect(disable.json().twoFactorEnabled).toBe(false);
    const plain = await new TestBrowser(testApp.app).post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    expect(plain.json().status).toBe('signed-in');
  });

  it('accepts an authenticator code once: a replayed code is refused', async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const { totpUri } = (await browser.post('/api/v1/account/two-factor/enable', { password: TEST_PASSWORD })).json();
    const secret = secretOf(totpUri);
    await browser.post('/api/v1/account/two-factor/confirm', { code: await generate({ secret }) });

    // Forget the code that confirmed set-up, as if its time step had passed.
    await testApp.database.db.update(twoFactor).set({ lastUsedCodeHash: null, lastUsedAt: null });

    const laptop = new TestBrowser(testApp.app);
    await laptop.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    const code = await generate({ secret });
    const firstUse = await laptop.post('/api/v1/auth/two-factor', { code });
    expect(firstUse.statusCode, firstUse.body).toBe(200);
    const attacker = new TestBrowser(testApp.app);
    await attacker.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
    const replay = await attacker.post('/api/v1/auth/two-factor', { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('code_already_used');
    expect((await attacker.get('/api/v1/session')).json()).toBeNull();
    expect((await laptop.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });
  });
});
