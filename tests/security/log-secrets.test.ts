import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaystackFake } from '../fakes/paystack/paystack-fake';
import { FAKE_API_KEY, FAKE_API_SECRET, VonageNumbersFake } from '../fakes/vonage/vonage-numbers-fake';
import { FAKE_SIGNATURE_SECRET, VonageVoiceFake } from '../fakes/vonage/vonage-voice-fake';
import { rentANumber, TEST_PASSWORD } from '../support/accounts';
import { freePort } from '../support/free-port';
import { cookieHeader, MediaClient } from '../support/media-client';
import { RealtimeTab } from '../support/realtime-tab';
import { startPayment } from '../support/sandbox-checkout';
import { decodeQuotedPrintable, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { buildTestApp, type TestApp } from '../support/test-app';
import { TestBrowser, uniqueEmail } from '../support/test-browser';
import { until } from '../support/until';
import { voiceNumbers } from '../support/vonage-test-server';

/**
 * The redaction grep of docs/operations.md#logs: an app logging everything (level trace, the
 * request and answer headers and its configuration included) through the server's own logger
 * options, driven through sign-up, email confirmation, sign-in, a TURN configuration, a realtime
 * socket, a call through Vonage (signed webhooks, a media socket with a one-time token), a password
 * change, a password reset, a Paystack payment and its signed webhook, errors and sign-out. Then
 * every secret, password and token the run used is looked for in the whole log, and none is there.
 */

const AUTH_SECRET = 'log-test-auth-secret-c8e41f0b9d2a7e63b5';
const SMTP_PASSWORD = 'smtp-pass-4c1d9e70b2';
const TURN_SECRET = 'turn-static-auth-secret-7a6b5c4d';
const NEW_PASSWORD = 'copper lantern meadow 58';
const RESET_PASSWORD = 'violet harbour compass 31';
const OUTSIDE = '+442079460958';
/** A JSON Web Token anywhere: a Vonage webhook's signature, a verification link's token. */
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

const log: string[] = [];
let smtp: SmtpInbox;
let paystack: PaystackFake;
let numbersFake: VonageNumbersFake;
let voiceFake: VonageVoiceFake;
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  smtp = await startSmtpInbox({ password: SMTP_PASSWORD });
  paystack = await PaystackFake.start();
  numbersFake = await VonageNumbersFake.start({ inventory: voiceNumbers('14152009', 3) });
  voiceFake = await VonageVoiceFake.start({ applicationId: 'aaaaaaaa-1111-2222-3333-555555555555', publicKey });
  const port = await freePort();
  testApp = await buildTestApp({
    logStream: { write: (line) => void log.push(line) },
    callTiming: { mediaConnectTimeoutMs: 3_000 },
    env: {
      LOG_LEVEL: 'trace',
      AUTH_SECRET,
      SMTP_URL: smtp.url,
      TURN_URLS: 'turn:turn.example:3478',
      TURN_SECRET,
      PAYMENTS: 'paystack',
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_API_URL: paystack.url,
      TELEPHONY: 'vonage',
      VONAGE_API_KEY: FAKE_API_KEY,
      VONAGE_API_SECRET: FAKE_API_SECRET,
      VONAGE_APPLICATION_ID: 'aaaaaaaa-1111-2222-3333-555555555555',
      VONAGE_PRIVATE_KEY: privateKey,
      VONAGE_SIGNATURE_SECRET: FAKE_SIGNATURE_SECRET,
      VONAGE_REST_URL: numbersFake.url,
      VONAGE_API_URL: voiceFake.url,
      VONAGE_CALLBACK_URL: `http://127.0.0.1:${port}`,
    },
  });
  await testApp.app.listen({ port, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${port}`;
});
afterAll(async () => {
  await testApp?.close();
  await Promise.all([voiceFake?.close(), numbersFake?.close(), paystack?.close()]);
  await smtp?.close();
});

/** Undoes quoted-printable soft line breaks and escapes, enough to read a link in a message. */
/** The link of the last mail to `email` whose text contains `marker`. */
async function mailedLink(email: string, marker: string): Promise<URL> {
  const pattern = /http:\/\/localhost:3000\/[^\s"<>]+/;
  const matching = () => smtp.deliveries.map((delivery) => decodeQuotedPrintable(delivery.raw)).filter((mail) => mail.includes(email) && mail.includes(marker));
  await until(() => matching().length > 0);
  return new URL(pattern.exec(matching().at(-1)!)![0].replaceAll('&amp;', '&'));
}

describe('the log of a whole run', () => {
  it('holds none of the secrets, passwords and tokens the run used', async () => {
    const used: Record<string, string> = { AUTH_SECRET, SMTP_PASSWORD, TURN_SECRET, PAYSTACK_SECRET_KEY: paystack.secretKey, VONAGE_API_SECRET: FAKE_API_SECRET, VONAGE_SIGNATURE_SECRET: FAKE_SIGNATURE_SECRET };
    used.VONAGE_PRIVATE_KEY = privateKey.split('\n')[1]!;
    used.password = TEST_PASSWORD;
    used.newPassword = NEW_PASSWORD;
    used.resetPassword = RESET_PASSWORD;

    // Sign-up, the confirmation link, a failed and a good sign-in.
    const email = uniqueEmail('logs');
    const browser = new TestBrowser(testApp.app);
    expect((await browser.post('/api/v1/auth/sign-up', { fullName: 'Log Test', email, password: TEST_PASSWORD })).statusCode).toBe(201);
    const confirm = await mailedLink(email, 'verify-email');
    used.verificationToken = confirm.searchParams.get('token')!;
    expect((await browser.get(`${confirm.pathname}${confirm.search}`)).statusCode).toBeLessThan(400);
    expect((await browser.post('/api/v1/auth/sign-in', { email, password: 'not the password at all' })).statusCode).toBe(401);
    expect((await browser.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD })).statusCode).toBe(200);

    // TURN credentials, a realtime socket, and a call through Vonage.
    const media = (await browser.get('/api/v1/media/config')).json() as { iceServers: { credential?: string }[] };
    used.turnCredential = media.iceServers.find((server) => server.credential)!.credential!;
    const tab = await RealtimeTab.open(wsBase, browser);
    const number = await rentANumber(browser);
    const placed = (await browser.post('/api/v1/calls', { from: number, to: OUTSIDE })).json() as { call: { id: string }; mediaPath: string };
    const caller = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(browser.cookies));
    const far = await voiceFake.nextCall();
    used.mediaToken = new URL(far.websocketEndpoint.uri).searchParams.get('token')!;
    await far.answer();
    caller.sendTone(440, 16_000);
    await until(() => caller.received.length > 5);
    await browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    await caller.closed;
    await tab.next('call.ended');

    // A password change, then a reset through the mailed link.
    expect((await browser.post('/api/v1/account/password', { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await new TestBrowser(testApp.app).post('/api/v1/auth/password-reset', { email })).statusCode).toBe(200);
    const reset = await mailedLink(email, 'updatePassword');
    used.resetToken = reset.searchParams.get('token')!;
    const resetting = new TestBrowser(testApp.app);
    await resetting.get(`${reset.pathname}${reset.search}`);
    expect((await resetting.post('/api/v1/auth/password-reset/confirm', { token: 'not-a-reset-token', newPassword: RESET_PASSWORD })).statusCode).toBe(400);
    expect((await resetting.post('/api/v1/auth/password-reset/confirm', { token: used.resetToken, newPassword: RESET_PASSWORD })).statusCode).toBe(200);

    // A Paystack payment, confirmed by its signed webhook.
    const payer = new TestBrowser(testApp.app);
    expect((await payer.post('/api/v1/auth/sign-in', { email, password: RESET_PASSWORD })).statusCode).toBe(200);
    const session = await startPayment(payer, { planType: 'premium' });
    paystack.pay(session.reference, 'success');
    const { body, signature } = paystack.chargeSuccessWebhook(session.reference);
    used.paystackSignature = signature;
    const webhook = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/providers/paystack/webhook',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': used.paystackSignature },
      payload: body,
    });
    expect(webhook.statusCode).toBe(200);

    // Errors: a body that is not JSON, an unknown route with a token in its query, then sign-out.
    expect((await payer.request('POST', '/api/v1/contacts', '{"name":', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await payer.get(`/api/v1/no-such-route?token=${used.resetToken}`)).statusCode).toBe(404);
    for (const [who, cookies] of [['payer', payer.cookies], ['browser', browser.cookies]] as const) {
      for (const [name, value] of cookies) used[`${who}'s cookie ${name}`] = value;
    }
    expect((await payer.post('/api/v1/auth/sign-out')).statusCode).toBe(200);
    tab.socket.close();

    const text = log.join('');
    // The run was logged, headers and configuration included, and redaction had work to do.
    expect(log.length).toBeGreaterThan(100);
    for (const message of ['"request headers"', '"answer headers"', '"configuration"', '"call ended"', '[redacted]']) expect(text).toContain(message);
    // As sent, and as Set-Cookie encodes it.
    const found = Object.entries(used).filter(([, value]) => text.includes(value) || text.includes(encodeURIComponent(value)));
    expect(found.map(([name]) => name)).toEqual([]);
    expect(JWT.exec(text)?.[0] ?? null).toBeNull();
  });
});
