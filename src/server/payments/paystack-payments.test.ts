import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaystackFake } from '../../../tests/fakes/paystack/paystack-fake';
import { newSignedInUser } from '../../../tests/support/accounts';
import { startPayment } from '../../../tests/support/sandbox-checkout';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, type TestBrowser } from '../../../tests/support/test-browser';
import { SUBSCRIPTION_PERIOD_MS } from '../../common/plans';
import { subscriptions } from '../plans/schema';
import { signPaystackBody } from '../providers/payments/paystack/webhook-signature';
import { payments } from './schema';

/** PAYMENTS=paystack end to end against tests/fakes/paystack: checkout, return, webhook. */

let fake: PaystackFake;
let testApp: TestApp;

beforeAll(async () => {
  fake = await PaystackFake.start();
  testApp = await buildTestApp({ mailer: capturingMailer(), env: { PAYMENTS: 'paystack', PAYSTACK_SECRET_KEY: fake.secretKey, PAYSTACK_API_URL: fake.url } });
});
afterAll(async () => {
  await testApp.close();
  await fake.close();
});

function postWebhook(body: string, signature?: string) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/v1/providers/paystack/webhook',
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-paystack-signature': signature }) },
    payload: body,
  });
}

const statusOf = async (browser: TestBrowser) => (await browser.get('/api/v1/subscription')).json() as { tier: string; expiryDate: string | null };
const paymentRow = async (reference: string) => (await testApp.database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;

describe('paying through Paystack', () => {
  it("initialises the transaction in kobo with the user's email and our reference, and sends the browser to Paystack's checkout", async () => {
    const { browser, email, userId } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser, { planType: 'premium', amountUSD: 100, amountNGN: 172_000 });
    const transaction = fake.transactions.get(session.reference)!;
    expect(session.paymentUrl).toBe(`${fake.url}/checkout/${transaction.accessCode}`);
    expect(fake.requestsTo('POST', '/transaction/initialize').at(-1)!.body).toEqual({
      email,
      amount: 17_200_000,
      currency: 'NGN',
      reference: session.reference,
      callback_url: 'http://localhost:3000/payment/receipt',
      metadata: { user_id: userId, plan: 'premium', amount_usd_minor: 10_000 },
      channels: ['card'],
    });
  });

  it('activates the plan once Paystack says success, with the card on the receipt', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser, { planType: 'platinum' });
    const paid = fake.pay(session.reference, 'success');
    const result = (await browser.post(`/api/v1/payments/${session.reference}/verify`)).json();
    expect(result).toMatchObject({ verified: true, status: 'success', subscription: { tier: 'platinum', isActive: true } });
    expect(result.subscription.expiryDate).toBe(new Date(new Date(paid.paidAt!).getTime() + SUBSCRIPTION_PERIOD_MS).toISOString());
    const receipt = (await browser.get(`/api/v1/payments/${session.reference}/receipt`)).json();
    expect(receipt).toMatchObject({ paymentProcessor: 'Paystack', paymentMethod: 'Visa card ending 4081', amountNgn: '258000.00', amountUsd: '150.00' });
  });

  it('activates nothing for a declined card, an abandoned checkout, or a payment still processing', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const declined = await startPayment(browser);
    fake.pay(declined.reference, 'declined');
    expect((await browser.post(`/api/v1/payments/${declined.reference}/verify`)).json()).toMatchObject({ verified: false, status: 'failed' });
    const abandoned = await startPayment(browser);
    expect((await browser.post(`/api/v1/payments/${abandoned.reference}/verify`)).json()).toMatchObject({ verified: false, status: 'abandoned' });
    const ongoing = await startPayment(browser);
    fake.setStatus(ongoing.reference, 'ongoing');
    expect((await browser.post(`/api/v1/payments/${ongoing.reference}/verify`)).json()).toMatchObject({
      verified: false,
      status: 'ongoing',
      message: 'The payment is still being processed. Please check again shortly.',
    });
    expect(await statusOf(browser)).toMatchObject({ tier: 'free' });
  });

  it('refuses a success with another amount or currency than the plan', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    for (const change of [{ amount: 100 }, { currency: 'USD' }]) {
      const session = await startPayment(browser);
      fake.pay(session.reference, 'success', change);
      const result = (await browser.post(`/api/v1/payments/${session.reference}/verify`)).json();
      expect(result, JSON.stringify(change)).toMatchObject({ verified: false, status: 'failed', message: "The amount paid does not match the plan's price. Please contact support." });
      expect((await paymentRow(session.reference)).activatedAt).toBeNull();
    }
    expect(await statusOf(browser)).toMatchObject({ tier: 'free' });
  });

  it("reports Paystack's refusal to open a checkout (502) and keeps nothing", async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    fake.failNext('POST', '/transaction/initialize', { status: 401, body: { status: false, message: 'Invalid key' } });
    const response = await browser.post('/api/v1/payments', { planType: 'premium' });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toBe("Paystack rejected Voxline's secret key (Invalid key)");
    expect(await testApp.database.db.select().from(payments).where(eq(payments.userId, userId))).toEqual([]);
  });
});

describe('the charge.success webhook', () => {
  it('is refused with a missing or wrong signature, and changes nothing', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    fake.pay(session.reference, 'success');
    const { body, signature } = fake.chargeSuccessWebhook(session.reference);
    const forged = fake.chargeSuccessWebhook(session.reference, 'sk_test_someone_else');
    const attempts = [
      await postWebhook(body),
      await postWebhook(body, 'f'.repeat(128)),
      await postWebhook(body, forged.signature),
      // The signature of other bytes: the same event re-serialised.
      await postWebhook(JSON.stringify(JSON.parse(body), null, 1), signature),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('invalid_signature');
    }
    expect((await paymentRow(session.reference)).activatedAt).toBeNull();
    expect(await statusOf(browser)).toMatchObject({ tier: 'free' });
  });

  it('with the right signature activates the plan once, however often Paystack delivers it', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    const paid = fake.pay(session.reference, 'success');
    const { body, signature } = fake.chargeSuccessWebhook(session.reference);
    const verifications = fake.requestsTo('GET', `/transaction/verify/${session.reference}`).length;

    const deliveries = await Promise.all([postWebhook(body, signature), postWebhook(body, signature)]);
    deliveries.push(await postWebhook(body, signature));
    for (const response of deliveries) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
    }
    // The event is a hint: Paystack was asked before anything was activated.
    expect(fake.requestsTo('GET', `/transaction/verify/${session.reference}`).length).toBeGreaterThan(verifications);
    const expected = new Date(new Date(paid.paidAt!).getTime() + SUBSCRIPTION_PERIOD_MS).toISOString();
    expect(await statusOf(browser)).toMatchObject({ tier: 'premium', expiryDate: expected });
    const [subscription] = await testApp.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subscription!.expiresAt!.toISOString()).toBe(expected);

    // The browser's return afterwards finds it done.
    expect((await browser.post(`/api/v1/payments/${session.reference}/verify`)).json()).toMatchObject({ verified: true, subscription: { expiryDate: expected } });
    expect(await statusOf(browser)).toMatchObject({ expiryDate: expected });
  });

  it('does not trust the event: a charge.success for a payment Paystack reports unpaid activates nothing', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    fake.pay(session.reference, 'success');
    const { body, signature } = fake.chargeSuccessWebhook(session.reference);
    fake.setStatus(session.reference, 'reversed');
    expect((await postWebhook(body, signature)).statusCode).toBe(200);
    expect((await paymentRow(session.reference)).activatedAt).toBeNull();
    expect((await paymentRow(session.reference)).status).toBe('reversed');
  });

  it('acknowledges other events and references Voxline did not make, changing nothing', async () => {
    const other = JSON.stringify({ event: 'transfer.success', data: { reference: 'T_1' } });
    const unknown = JSON.stringify({ event: 'charge.success', data: { reference: 'VXL-made-elsewhere', amount: 100, currency: 'NGN', status: 'success' } });
    for (const body of [other, unknown]) {
      const response = await postWebhook(body, signPaystackBody(fake.secretKey, body));
      expect(response.statusCode).toBe(200);
    }
    const notJson = 'not json';
    expect((await postWebhook(notJson, signPaystackBody(fake.secretKey, notJson))).statusCode).toBe(400);
  });

  it('asks Paystack again later when it cannot be reached (an error, so Paystack retries)', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    fake.pay(session.reference, 'success');
    const { body, signature } = fake.chargeSuccessWebhook(session.reference);
    fake.failNext('GET', `/transaction/verify/${session.reference}`, { status: 503, body: { status: false, message: 'Service Unavailable' } });
    expect((await postWebhook(body, signature)).statusCode).toBe(502);
    expect((await paymentRow(session.reference)).activatedAt).toBeNull();
    expect((await postWebhook(body, signature)).statusCode).toBe(200);
    expect(await statusOf(browser)).toMatchObject({ tier: 'premium' });
  });

  it('is not served while the sandbox takes the payments', async () => {
    const sandbox = await buildTestApp({ mailer: capturingMailer() });
    try {
      const response = await sandbox.app.inject({ method: 'POST', url: '/api/v1/providers/paystack/webhook', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(response.statusCode).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});
