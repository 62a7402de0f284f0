import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { cancelCheckout, DECLINED_CARD, payAtCheckout, startPayment, SUCCESS_CARD, submitCheckout } from '../../../tests/support/sandbox-checkout';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';
import { SUBSCRIPTION_PERIOD_MS } from '../../common/plans';
import { subscriptions } from '../plans/schema';
import { PaymentError, type PaymentProvider } from '../providers/payments/payment-provider';
import { createSandboxProvider } from '../providers/payments/sandbox/sandbox-provider';
import { payments } from './schema';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

const DAY = 86_400_000;

async function verify(browser: TestBrowser, reference: string) {
  const response = await browser.post(`/api/v1/payments/${reference}/verify`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { verified: boolean; status: string; message: string; planType: string; subscription: { tier: string; isActive: boolean; expiryDate: string | null } };
}

async function statusOf(browser: TestBrowser) {
  const response = await browser.get('/api/v1/subscription');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { tier: string; isActive: boolean; expiryDate: string | null };
}

const paymentsOf = (userId: string) => testApp.database.db.select().from(payments).where(eq(payments.userId, userId));

describe('every subscription and payment route', () => {
  it('needs a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    const status = await anonymous.get('/api/v1/subscription');
    expect(status.statusCode).toBe(401);
    expect(status.json().error.message).toBe('You must be logged in to check subscription status');
    expect((await anonymous.get('/api/v1/subscription/minutes')).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/payments', { planType: 'premium' })).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/payments/VXL-abc/verify')).statusCode).toBe(401);
    expect((await anonymous.get('/api/v1/payments/VXL-abc/receipt')).statusCode).toBe(401);
  });
});

describe('a new user', () => {
  it('is on Free with 10 metered minutes this month', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    expect(await statusOf(browser)).toEqual({ tier: 'free', isActive: false, expiryDate: null });
    const minutes = await browser.get('/api/v1/subscription/minutes');
    expect(minutes.json()).toMatchObject({ tier: 'free', monthlyMinutes: 10, usedSeconds: 0, secondsLeft: 600 });
  });
});

describe('POST /api/v1/payments', () => {
  it('opens a checkout at the server price with a reference of its own, coming back to the receipt page by default', async () => {
    const { browser, email, userId } = await newSignedInUser(testApp.app, 'Ada Lovelace');
    const session = await startPayment(browser, { planType: 'premium', amountUSD: 100, amountNGN: 172_000 });
    expect(session).toMatchObject({ planType: 'premium', amountUsd: '100.00', amountNgn: '172000.00' });
    expect(session.reference).toMatch(/^VXL-[0-9a-f]{24}$/);
    expect(session.paymentUrl).toBe(`http://localhost:3000/sandbox/checkout/${session.reference}`);

    const [row] = await paymentsOf(userId);
    expect(row).toMatchObject({ reference: session.reference, plan: 'premium', amountUsdMinor: 10_000, amountMinor: 17_200_000, currency: 'NGN', status: 'pending', activatedAt: null });

    const page = await testApp.app.inject({ method: 'GET', url: new URL(session.paymentUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const text of ['Voxline Sandbox Checkout', 'Premium', '₦172,000.00', '$100.00', email, 'Pay ₦172,000.00', 'Cancel']) expect(page.body).toContain(text);

    const back = await payAtCheckout(testApp.app, session.paymentUrl);
    expect(back.origin + back.pathname).toBe('http://localhost:3000/payment/receipt');
    expect(back.searchParams.get('reference')).toBe(session.reference);
    expect(back.searchParams.get('trxref')).toBe(session.reference);
  });

  it('charges Platinum $150, ₦258,000, and sends the browser back to a callback URL of this site', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser, { planType: 'Platinum', amountUSD: 150, amountNGN: 258_000, callbackUrl: 'http://localhost:3000/settings?tab=subscription' });
    expect(session).toMatchObject({ planType: 'platinum', amountUsd: '150.00', amountNgn: '258000.00' });
    const back = await payAtCheckout(testApp.app, session.paymentUrl);
    expect(back.pathname).toBe('/settings');
    expect(Object.fromEntries(back.searchParams)).toEqual({ tab: 'subscription', trxref: session.reference, reference: session.reference });
  });

  it('refuses amounts that disagree with the plan (422 naming the field) and creates nothing', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    for (const [body, field, message] of [
      [{ planType: 'premium', amountUSD: 1, amountNGN: 172_000 }, 'amountUSD', 'The Premium plan costs $100.00 a month'],
      [{ planType: 'premium', amountUSD: 100, amountNGN: 1_720 }, 'amountNGN', 'The Premium plan costs ₦172,000.00 a month'],
      [{ planType: 'platinum', amountUSD: 100, amountNGN: 172_000 }, 'amountUSD', 'The Platinum plan costs $150.00 a month'],
    ] as const) {
      const response = await browser.post('/api/v1/payments', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().error).toEqual({ code: 'price_mismatch', message, field });
    }
    expect(await paymentsOf(userId)).toEqual([]);
  });

  it('refuses an unknown plan, an amount field of its own, and a callback to another site (400 naming the field)', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const cases = [
      [{ planType: 'gold' }, 'planType'],
      [{}, 'planType'],
      [{ planType: 'premium', amountUSD: 'a lot' }, 'amountUSD'],
      [{ planType: 'premium', amount: 1 }, 'body'],
      [{ planType: 'premium', callbackUrl: 'https://evil.example/payment/receipt' }, 'callbackUrl'],
      [{ planType: 'premium', callbackUrl: 'javascript:alert(1)' }, 'callbackUrl'],
    ] as const;
    for (const [body, field] of cases) {
      const response = await browser.post('/api/v1/payments', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.field, JSON.stringify(body)).toBe(field);
    }
    expect(await paymentsOf(userId)).toEqual([]);
  });

  it("reports the provider's failure (502) and keeps no payment", async () => {
    const failing: PaymentProvider = {
      name: 'sandbox',
      displayName: 'Broken',
      initialize: async () => {
        throw new PaymentError('unreachable', 'Paystack could not be reached: connect ECONNREFUSED');
      },
      verify: async () => {
        throw new PaymentError('unreachable', 'Paystack could not be reached: connect ECONNREFUSED');
      },
    };
    const broken = await buildTestApp({ mailer: capturingMailer(), paymentProvider: failing });
    try {
      const { browser, userId } = await newSignedInUser(broken.app);
      const response = await browser.post('/api/v1/payments', { planType: 'premium' });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toEqual({ code: 'provider_failed', message: 'Paystack could not be reached: connect ECONNREFUSED' });
      expect(await broken.database.db.select().from(payments).where(eq(payments.userId, userId))).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});

describe('verification', () => {
  it('activates Premium for 30 days after a payment with the success card, and gives the receipt', async () => {
    const { browser, email, userId } = await newSignedInUser(testApp.app, 'Ada Lovelace');
    const session = await startPayment(browser);
    await payAtCheckout(testApp.app, session.paymentUrl, SUCCESS_CARD);

    const result = await verify(browser, session.reference);
    expect(result).toMatchObject({ verified: true, status: 'success', message: 'Your Premium subscription has been activated!', planType: 'premium' });
    expect(result.subscription).toMatchObject({ tier: 'premium', isActive: true });
    const [row] = await paymentsOf(userId);
    expect(new Date(result.subscription.expiryDate!).getTime()).toBe(row!.paidAt!.getTime() + SUBSCRIPTION_PERIOD_MS);
    expect(await statusOf(browser)).toEqual(result.subscription);
    expect((await browser.get('/api/v1/subscription/minutes')).json()).toMatchObject({ tier: 'premium', monthlyMinutes: 150, secondsLeft: 9000 });

    const receipt = await browser.get(`/api/v1/payments/${session.reference}/receipt`);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.json()).toEqual({
      company: 'Voxline',
      reference: session.reference,
      transactionDate: row!.paidAt!.toISOString(),
      customerName: 'Ada Lovelace',
      customerEmail: email,
      planType: 'premium',
      amountUsd: '100.00',
      amountNgn: '172000.00',
      status: 'success',
      paymentProcessor: 'Voxline Sandbox (test payments)',
      paymentMethod: 'Visa card ending 4081',
      subscription: { tier: 'premium', expiresAt: result.subscription.expiryDate },
    });
  });

  it('answers a second verification the same and extends nothing', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    await payAtCheckout(testApp.app, session.paymentUrl);
    const first = await verify(browser, session.reference);
    const second = await verify(browser, session.reference);
    expect(second).toEqual(first);
    // The checkout, once paid, only sends the browser back.
    const again = await payAtCheckout(testApp.app, session.paymentUrl);
    expect(again.searchParams.get('reference')).toBe(session.reference);
    expect(await verify(browser, session.reference)).toEqual(first);
  });

  it('activates once when many verifications arrive at the same moment', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    await payAtCheckout(testApp.app, session.paymentUrl);
    const results = await Promise.all(Array.from({ length: 6 }, () => verify(browser, session.reference)));
    const [row] = await paymentsOf(userId);
    const expected = new Date(row!.paidAt!.getTime() + SUBSCRIPTION_PERIOD_MS).toISOString();
    for (const result of results) expect(result).toMatchObject({ verified: true, subscription: { tier: 'premium', expiryDate: expected } });
    const [subscription] = await testApp.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subscription!.expiresAt!.toISOString()).toBe(expected);
    expect(row!.grantedUntil!.toISOString()).toBe(expected);
  });

  it('leaves a declined card on Free with no receipt; paying again with the success card then activates', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    const back = await payAtCheckout(testApp.app, session.paymentUrl, DECLINED_CARD);
    expect(back.searchParams.get('reference')).toBe(session.reference);

    expect(await verify(browser, session.reference)).toMatchObject({
      verified: false,
      status: 'failed',
      message: 'The payment was declined',
      subscription: { tier: 'free', isActive: false, expiryDate: null },
    });
    expect(await statusOf(browser)).toMatchObject({ tier: 'free' });
    const receipt = await browser.get(`/api/v1/payments/${session.reference}/receipt`);
    expect(receipt.statusCode).toBe(409);
    expect(receipt.json().error.code).toBe('payment_not_verified');

    await payAtCheckout(testApp.app, session.paymentUrl, SUCCESS_CARD);
    expect(await verify(browser, session.reference)).toMatchObject({ verified: true, subscription: { tier: 'premium' } });
  });

  it('activates nothing for an abandoned payment: never paid, or left with Cancel', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const unpaid = await startPayment(browser);
    expect(await verify(browser, unpaid.reference)).toMatchObject({ verified: false, status: 'abandoned', message: 'The payment was not completed' });

    const cancelled = await startPayment(browser, { planType: 'platinum' });
    const back = await cancelCheckout(testApp.app, cancelled.paymentUrl);
    expect(back.pathname).toBe('/payment/receipt');
    expect(back.searchParams.get('reference')).toBe(cancelled.reference);
    expect(await verify(browser, cancelled.reference)).toMatchObject({ verified: false, status: 'abandoned' });
    expect(await statusOf(browser)).toEqual({ tier: 'free', isActive: false, expiryDate: null });
  });

  it("refuses another user's reference (404, like a missing one) and activates nothing for either", async () => {
    const owner = await newSignedInUser(testApp.app);
    const other = await newSignedInUser(testApp.app);
    const session = await startPayment(owner.browser);
    await payAtCheckout(testApp.app, session.paymentUrl);

    for (const response of [await other.browser.post(`/api/v1/payments/${session.reference}/verify`), await other.browser.get(`/api/v1/payments/${session.reference}/receipt`)]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'not_found', message: 'Payment not found' });
    }
    expect(await statusOf(other.browser)).toMatchObject({ tier: 'free' });
    expect(await statusOf(owner.browser)).toMatchObject({ tier: 'free' });
    expect((await paymentsOf(owner.userId))[0]!.activatedAt).toBeNull();

    for (const reference of ['VXL-0000', 'not a reference', '..']) {
      expect((await owner.browser.post(`/api/v1/payments/${encodeURIComponent(reference)}/verify`)).statusCode, reference).toBe(404);
    }
  });

  it('extends a renewal from the current expiry, and starts a change of plan from the payment', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const first = await startPayment(browser);
    await payAtCheckout(testApp.app, first.paymentUrl);
    const firstExpiry = new Date((await verify(browser, first.reference)).subscription.expiryDate!).getTime();

    const renewal = await startPayment(browser);
    await payAtCheckout(testApp.app, renewal.paymentUrl);
    const renewed = await verify(browser, renewal.reference);
    expect(new Date(renewed.subscription.expiryDate!).getTime()).toBe(firstExpiry + SUBSCRIPTION_PERIOD_MS);

    const upgrade = await startPayment(browser, { planType: 'platinum' });
    await payAtCheckout(testApp.app, upgrade.paymentUrl);
    const upgraded = await verify(browser, upgrade.reference);
    const paidAt = (await paymentsOf(userId)).find((row) => row.reference === upgrade.reference)!.paidAt!;
    expect(upgraded.subscription).toEqual({ tier: 'platinum', isActive: true, expiryDate: new Date(paidAt.getTime() + SUBSCRIPTION_PERIOD_MS).toISOString() });
    // The receipt of each payment keeps what that payment gave.
    const receipt = (await browser.get(`/api/v1/payments/${renewal.reference}/receipt`)).json();
    expect(receipt.subscription).toEqual({ tier: 'premium', expiresAt: renewed.subscription.expiryDate });
  });

  it("reports the provider's failure to verify (502) and changes nothing", async () => {
    let down = false;
    // The sandbox on the new app's own database, once it exists.
    const sandbox = () => createSandboxProvider({ db: app.database.db });
    const flaky: PaymentProvider = {
      name: 'sandbox',
      displayName: 'Flaky sandbox',
      initialize: (request) => sandbox().initialize(request),
      verify: async (reference) => {
        if (down) throw new PaymentError('unreachable', 'The payment provider could not be reached');
        return sandbox().verify(reference);
      },
    };
    const app: TestApp = await buildTestApp({ mailer: capturingMailer(), paymentProvider: flaky });
    try {
      const { browser, userId } = await newSignedInUser(app.app);
      const session = await startPayment(browser);
      await payAtCheckout(app.app, session.paymentUrl);
      down = true;
      const response = await browser.post(`/api/v1/payments/${session.reference}/verify`);
      expect(response.statusCode).toBe(502);
      expect(response.json().error.message).toBe('The payment provider could not be reached');
      expect((await app.database.db.select().from(payments).where(eq(payments.userId, userId)))[0]!.activatedAt).toBeNull();
      down = false;
      const verified = await browser.post(`/api/v1/payments/${session.reference}/verify`);
      expect(verified.json()).toMatchObject({ verified: true });
    } finally {
      await app.close();
    }
  });
});

describe('the sandbox checkout', () => {
  it('takes only the test cards, with their CVV and a future expiry, and changes nothing otherwise', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    for (const [form, error] of [
      [{ card: '4111 1111 1111 1111', expiry: '12/30', cvv: '123' }, 'Use one of the test cards below: this checkout takes no real cards.'],
      [{ ...SUCCESS_CARD, expiry: '01/20' }, 'Enter an expiry date in the future, as MM/YY.'],
      [{ ...SUCCESS_CARD, expiry: '13/30' }, 'Enter an expiry date in the future, as MM/YY.'],
      [{ ...SUCCESS_CARD, cvv: '001' }, "Enter the test card's CVV (408)."],
      [{}, 'Use one of the test cards below: this checkout takes no real cards.'],
    ] as const) {
      const response = await submitCheckout(testApp.app, session.paymentUrl, form);
      expect(response.statusCode, JSON.stringify(form)).toBe(422);
      expect(response.body).toContain(`role="alert">${error.replace("'", '&#39;')}</p>`);
    }
    expect(await verify(browser, session.reference)).toMatchObject({ verified: false, status: 'abandoned' });
  });

  it('escapes what it shows, and answers an unknown reference with a 404 page', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    const page = await submitCheckout(testApp.app, session.paymentUrl, { card: '"><script>alert(1)</script>', expiry: '', cvv: '' });
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&quot;&gt;&lt;script&gt;');

    const missing = await testApp.app.inject({ method: 'GET', url: '/sandbox/checkout/VXL-nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Payment not found');
    expect((await submitCheckout(testApp.app, 'http://localhost:3000/sandbox/checkout/VXL-nope', SUCCESS_CARD)).statusCode).toBe(404);
  });

  it('shows a paid checkout as complete, with the way back', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const session = await startPayment(browser);
    await payAtCheckout(testApp.app, session.paymentUrl);
    const page = await testApp.app.inject({ method: 'GET', url: new URL(session.paymentUrl).pathname });
    expect(page.body).toContain('This payment is complete');
    expect(page.body).toContain(`/payment/receipt?trxref=${session.reference}&amp;reference=${session.reference}`);
  });

  it('is not served when Paystack takes the payments', async () => {
    const paystack = await buildTestApp({ mailer: capturingMailer(), env: { PAYMENTS: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_x', PAYSTACK_API_URL: 'http://127.0.0.1:9' } });
    try {
      const page = await paystack.app.inject({ method: 'POST', url: '/sandbox/checkout/VXL-1', payload: {} });
      expect(page.statusCode).toBe(404);
    } finally {
      await paystack.close();
    }
  });
});

describe('an expired plan', () => {
  it('reads as Free; without expires_at it runs 30 days from updated_at (docs/product.md §9)', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const { db } = testApp.database;
    await db.insert(subscriptions).values({ userId, tier: 'platinum', expiresAt: null, updatedAt: new Date(Date.now() - 10 * DAY) });
    const status = await statusOf(browser);
    expect(status).toMatchObject({ tier: 'platinum', isActive: true });
    expect(Math.abs(new Date(status.expiryDate!).getTime() - (Date.now() + 20 * DAY))).toBeLessThan(60_000);

    await db.update(subscriptions).set({ updatedAt: new Date(Date.now() - 31 * DAY) }).where(eq(subscriptions.userId, userId));
    expect(await statusOf(browser)).toEqual({ tier: 'free', isActive: false, expiryDate: null });
  });
});
