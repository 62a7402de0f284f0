import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../support/accounts';
import { buildTestApp, type TestApp } from '../support/test-app';
import { TestBrowser, uniqueEmail } from '../support/test-browser';

interface Delivery {
  to: string[];
  raw: string;
}

const deliveries: Delivery[] = [];
let smtp: SMTPServer;
let testApp: TestApp;

/** Undoes quoted-printable soft line breaks and escapes, enough to read links in a message body. */
function decodeQuotedPrintable(raw: string) {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        deliveries.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  testApp = await buildTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Voxline <no-reply@voxline.test>' } });
});

afterAll(async () => {
  await testApp.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

describe('password reset over real SMTP', () => {
  it('delivers the reset mail to the SMTP server, and its link sets a new password', async () => {
    const email = uniqueEmail('smtp');
    // Strong enough to be accepted (decision 014).
    const NEW_PASSWORD = 'tangerine orbit quarry 7';
    await new TestBrowser(testApp.app).post('/api/v1/auth/sign-up', { fullName: 'Mail Test', email, password: TEST_PASSWORD });
    const requested = await new TestBrowser(testApp.app).post('/api/v1/auth/password-reset', { email });
    expect(requested.statusCode).toBe(200);

    const delivery = deliveries.filter((d) => d.to.includes(email)).find((d) => d.raw.includes('Reset your Voxline password'));
    expect(delivery, `deliveries: ${deliveries.map((d) => d.to.join()).join('; ')}`).toBeDefined();
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
