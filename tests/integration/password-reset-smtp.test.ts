import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../support/accounts';
import { decodeQuotedPrintable, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { buildTestApp, type TestApp } from '../support/test-app';
import { TestBrowser, uniqueEmail } from '../support/test-browser';

let smtp: SmtpInbox;
let testApp: TestApp;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  testApp = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Voxline <no-reply@voxline.test>' } });
});

afterAll(async () => {
  await testApp.close();
  await smtp?.close();
});

describe('password reset over real SMTP', () => {
  it('delivers the reset mail to the SMTP server, and its link sets a new password', async () => {
    const email = uniqueEmail('smtp');
    // Strong enough to be accepted (decision 014).
    const NEW_PASSWORD = 'tangerine orbit quarry 7';
    await new TestBrowser(testApp.app).post('/api/v1/auth/sign-up', { fullName: 'Mail Test', email, password: TEST_PASSWORD });
    const requested = await new TestBrowser(testApp.app).post('/api/v1/auth/password-reset', { email });
    expect(requested.statusCode).toBe(200);

    const delivery = smtp.deliveries.filter((d) => d.to.includes(email)).find((d) => d.raw.includes('Reset your Voxline password'));
    expect(delivery, `deliveries: ${smtp.deliveries.map((d) => d.to.join()).join('; ')}`).toBeDefined();
    expect(delivery!.raw).toContain('From: Voxline <no-reply@voxline.test>');
    const link = /http:\/\/localhost:3000\/auth\?tab=updatePassword&token=[\w-]+/.exec(decodeQuotedPrintable(delivery!.raw));
    expect(link).not.toBeNull();
    const token = new URL(link![0]).searchParams.get('token')!;

    const reset = await new TestBrowser(testApp.app).post('/api/v1/auth/password-reset/confirm', { token, newPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    const signIn = await new TestBrowser(testApp.app).post('/api/v1/auth/sign-in', { email, password: NEW_PASSWORD });
    expect(signIn.json().status).toBe('signed-in');
  });
});
