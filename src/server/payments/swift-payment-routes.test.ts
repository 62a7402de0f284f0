import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { DECLINED_CARD, payAtCheckout } from '../../../tests/support/sandbox-checkout';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

const swiftPayment = (browser: TestBrowser, action: string, payload?: unknown) => browser.post('/functions/v1/swift-payment', { action, payload });

/** The payment session request exactly as docs/product.md §3 and §7 describe the seed sending it. */
async function createSession(browser: TestBrowser, email: string, userId: string, planType = 'premium') {
  const amountUSD = planType === 'premium' ? 100 : 150;
  const response = await swiftPayment(browser, 'createPaymentSession', {
    email,
    amountUSD,
    amountNGN: Math.round(amountUSD * 1720),
    planType,
    userId,
    callbackUrl: 'http://localhost:3000/payment/receipt',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { success: boolean; paymentUrl: string; message: string; reference: string };
}

describe('POST /functions/v1/swift-payment', () => {
  it('createPaymentSession, verifyPayment and getPaymentReceipt answer docs/product.md §7 fields', async () => {
    const { browser, email, userId } = await newSignedInUser(testApp.app, 'Grace Hopper');
    const session = await createSession(browser, email, userId);
    expect(session).toMatchObject({ success: true, message: 'Payment session created' });
    expect(session.paymentUrl).toBe(`http://localhost:3000/sandbox/checkout/${session.reference}`);
    await payAtCheckout(testApp.app, session.paymentUrl);

    const verified = await swiftPayment(browser, 'verifyPayment', { reference: session.reference });
    expect(verified.json()).toEqual({ success: true, status: 'success', message: 'Your Premium subscription has been activated!' });

    const receipt = await swiftPayment(browser, 'getPaymentReceipt', { reference: session.reference });
    expect(receipt.statusCode).toBe(200);
    const body = receipt.json();
    expect(body.success).toBe(true);
    expect(body.receipt).toMatchObject({
      company: 'Voxline',
      reference: session.reference,
      customer_name: 'Grace Hopper',
      customer_email: email,
      plan_type: 'premium',
      amount_usd: 100,
      amount_ngn: 172000,
      status: 'success',
      payment_processor: 'Voxline Sandbox (test payments)',
      subscription: { tier: 'premium' },
    });
    expect(new Date(body.receipt.transaction_date).getTime()).not.toBeNaN();
    expect(new Date(body.receipt.subscription.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('answers a declined payment with success false and its status', async () => {
    const { browser, email, userId } = await newSignedInUser(testApp.app);
    const session = await createSession(browser, email, userId, 'platinum');
    await payAtCheckout(testApp.app, session.paymentUrl, DECLINED_CARD);
    const verified = await swiftPayment(browser, 'verifyPayment', { reference: session.reference });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ success: false, status: 'failed', message: 'The payment was declined' });
    const receipt = await swiftPayment(browser, 'getPaymentReceipt', { reference: session.reference });
    expect(receipt.statusCode).toBe(409);
    expect(receipt.json()).toMatchObject({ success: false, message: 'Failed to generate receipt: This payment has not been verified as successful' });
  });

  it("fails with docs/product.md §8's messages: tampered price (422), someone else's userId or email (403), another user's reference (404)", async () => {
    const { browser, email, userId } = await newSignedInUser(testApp.app);
    const tampered = await swiftPayment(browser, 'createPaymentSession', { email, amountUSD: 1, amountNGN: 1720, planType: 'premium', userId });
    expect(tampered.statusCode).toBe(422);
    expect(tampered.json()).toEqual({
      success: false,
      message: 'Failed to create payment session: The Premium plan costs $100.00 a month',
      error: { code: 'price_mismatch', message: 'The Premium plan costs $100.00 a month', field: 'amountUSD' },
    });

    const other = await newSignedInUser(testApp.app);
    const forOther = await swiftPayment(browser, 'createPaymentSession', { email, amountUSD: 100, amountNGN: 172000, planType: 'premium', userId: other.userId });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().error.field).toBe('payload.userId');
    const otherEmail = await swiftPayment(browser, 'createPaymentSession', { email: other.email, amountUSD: 100, amountNGN: 172000, planType: 'premium', userId });
    expect(otherEmail.statusCode).toBe(403);
    expect(otherEmail.json().error.field).toBe('payload.email');

    const session = await createSession(other.browser, other.email, other.userId);
    const stolen = await swiftPayment(browser, 'verifyPayment', { reference: session.reference });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ success: false, message: 'Failed to verify payment: Payment not found' });
  });

  it('names a bad payload field, an unknown action, and a missing session', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const missing = await swiftPayment(browser, 'createPaymentSession', { planType: 'premium' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ success: false, error: { field: 'payload.amountUSD' } });
    expect(missing.json().message).toMatch(/^Failed to create payment session: payload\.amountUSD: /);

    const noReference = await swiftPayment(browser, 'verifyPayment', {});
    expect(noReference.json()).toMatchObject({ success: false, error: { field: 'payload.reference' } });

    const unknown = await swiftPayment(browser, 'refund', {});
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ success: false, message: 'Payment request failed: Unknown action', error: { code: 'unknown_action', field: 'action' } });

    const badBody = await browser.post('/functions/v1/swift-payment', { payload: {} });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json()).toMatchObject({ success: false, error: { code: 'invalid_input', field: 'action' } });

    const anonymous = await swiftPayment(new TestBrowser(testApp.app), 'verifyPayment', { reference: 'VXL-1' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, message: 'Failed to verify payment: You need to sign in first' });
  });
});
