import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_PAYSTACK_SECRET_KEY, PaystackFake } from '../../../../../tests/fakes/paystack/paystack-fake';
import { PaymentError, type CheckoutRequest, type PaymentProvider } from '../payment-provider';
import { createPaystackProvider } from './paystack-provider';
import { isPaystackSignatureValid, signPaystackBody } from './webhook-signature';

let fake: PaystackFake;
let paystack: PaymentProvider;

const checkout = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  reference: 'VXL-0123456789abcdef0123',
  email: 'ada@example.com',
  amountMinor: 17_200_000,
  currency: 'NGN',
  callbackUrl: 'https://voxline.example/payment/receipt',
  metadata: { plan: 'premium', user_id: 'u1' },
  ...overrides,
});

beforeEach(async () => {
  fake = await PaystackFake.start();
  paystack = createPaystackProvider({ secretKey: FAKE_PAYSTACK_SECRET_KEY, apiUrl: `${fake.url}/` });
});
afterEach(() => fake.close());

async function failureOf(promise: Promise<unknown>): Promise<PaymentError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentError);
  return error as PaymentError;
}

describe('initialize', () => {
  it('opens a transaction in kobo with the email, our reference, the callback URL and metadata, with the secret key', async () => {
    const { paymentUrl } = await paystack.initialize(checkout());
    const transaction = fake.transactions.get('VXL-0123456789abcdef0123')!;
    expect(paymentUrl).toBe(`${fake.url}/checkout/${transaction.accessCode}`);
    const [request] = fake.requestsTo('POST', '/transaction/initialize');
    expect(request).toMatchObject({
      bearer: FAKE_PAYSTACK_SECRET_KEY,
      body: {
        email: 'ada@example.com',
        amount: 17_200_000,
        currency: 'NGN',
        reference: 'VXL-0123456789abcdef0123',
        callback_url: 'https://voxline.example/payment/receipt',
        metadata: { plan: 'premium', user_id: 'u1' },
        channels: ['card'],
      },
    });
  });

  it("reports a reused reference, a missing field and a bad key with Paystack's reason", async () => {
    await paystack.initialize(checkout());
    expect(await failureOf(paystack.initialize(checkout()))).toMatchObject({ failure: 'rejected', message: 'Paystack refused: Duplicate Transaction Reference' });
    expect(await failureOf(paystack.initialize(checkout({ reference: 'VXL-2', email: '' })))).toMatchObject({
      failure: 'rejected',
      message: 'Paystack refused: Email Address is required',
    });
    const wrongKey = createPaystackProvider({ secretKey: 'sk_test_wrong', apiUrl: fake.url });
    expect(await failureOf(wrongKey.initialize(checkout({ reference: 'VXL-3' })))).toMatchObject({
      failure: 'rejected',
      message: "Paystack rejected Voxline's secret key (Invalid key)",
    });
  });

  it('reports a server error, an answer without a checkout address, and an unreachable host', async () => {
    fake.failNext('POST', '/transaction/initialize', { status: 500, body: { status: false, message: 'An error occurred' } });
    expect(await failureOf(paystack.initialize(checkout()))).toMatchObject({ failure: 'unreachable', message: 'Paystack answered 500: An error occurred' });

    fake.failNext('POST', '/transaction/initialize', { status: 200, body: { status: true, message: 'Authorization URL created', data: {} } });
    expect(await failureOf(paystack.initialize(checkout()))).toMatchObject({ failure: 'unreachable', message: 'Paystack answered without a checkout address' });

    const closed = await PaystackFake.start();
    await closed.close();
    const unreachable = await failureOf(createPaystackProvider({ secretKey: FAKE_PAYSTACK_SECRET_KEY, apiUrl: closed.url }).initialize(checkout()));
    expect(unreachable.failure).toBe('unreachable');
    expect(unreachable.message).toMatch(/^Paystack could not be reached: /);
  });
});

describe('verify', () => {
  it("reads a paid transaction's status, amount, currency, date and card from data, not the top-level status", async () => {
    await paystack.initialize(checkout());
    const paid = fake.pay('VXL-0123456789abcdef0123', 'success');
    expect(await paystack.verify('VXL-0123456789abcdef0123')).toEqual({
      reference: 'VXL-0123456789abcdef0123',
      status: 'success',
      amountMinor: 17_200_000,
      currency: 'NGN',
      paidAt: new Date(paid.paidAt!),
      paymentMethod: 'Visa card ending 4081',
      gatewayResponse: 'Successful',
    });
    expect(fake.requestsTo('GET', '/transaction/verify/VXL-0123456789abcdef0123')[0]!.bearer).toBe(FAKE_PAYSTACK_SECRET_KEY);
  });

  it('reports a declined card as failed and an unpaid checkout as abandoned (the request itself succeeded)', async () => {
    await paystack.initialize(checkout());
    expect(await paystack.verify('VXL-0123456789abcdef0123')).toMatchObject({ status: 'abandoned', paidAt: null, paymentMethod: null });
    fake.pay('VXL-0123456789abcdef0123', 'declined');
    expect(await paystack.verify('VXL-0123456789abcdef0123')).toMatchObject({ status: 'failed', gatewayResponse: 'Declined', paymentMethod: 'Visa card ending 5408' });
  });

  it('reads an unknown reference as not found, whether Paystack answers 400 or 404', async () => {
    expect(await failureOf(paystack.verify('VXL-unknown'))).toMatchObject({ failure: 'not_found' });
    const strict = await PaystackFake.start({ notFoundStatus: 404 });
    try {
      const provider = createPaystackProvider({ secretKey: FAKE_PAYSTACK_SECRET_KEY, apiUrl: strict.url });
      expect(await failureOf(provider.verify('VXL-unknown'))).toMatchObject({ failure: 'not_found' });
    } finally {
      await strict.close();
    }
  });

  it('reports a bad key, a server error, a body that is not JSON and a status it does not know', async () => {
    await paystack.initialize(checkout());
    const wrongKey = createPaystackProvider({ secretKey: 'sk_test_wrong', apiUrl: fake.url });
    expect(await failureOf(wrongKey.verify('VXL-0123456789abcdef0123'))).toMatchObject({ failure: 'rejected' });

    fake.failNext('GET', '/transaction/verify/VXL-0123456789abcdef0123', { status: 502, body: 'Bad Gateway' });
    expect(await failureOf(paystack.verify('VXL-0123456789abcdef0123'))).toMatchObject({ failure: 'unreachable', message: 'Paystack answered 502: HTTP 502' });

    fake.failNext('GET', '/transaction/verify/VXL-0123456789abcdef0123', {
      status: 200,
      body: { status: true, message: 'Verification successful', data: { status: 'mystery', amount: 1, reference: 'VXL-0123456789abcdef0123' } },
    });
    expect(await failureOf(paystack.verify('VXL-0123456789abcdef0123'))).toMatchObject({ failure: 'unreachable' });
  });
});

describe('webhook signatures', () => {
  it('accepts the HMAC-SHA512 of the raw body with the secret key, and nothing else', () => {
    const body = Buffer.from('{"event":"charge.success","data":{"reference":"VXL-1"}}');
    const signature = signPaystackBody(FAKE_PAYSTACK_SECRET_KEY, body);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(isPaystackSignatureValid(FAKE_PAYSTACK_SECRET_KEY, body, signature)).toBe(true);
    expect(isPaystackSignatureValid(FAKE_PAYSTACK_SECRET_KEY, body, signature.toUpperCase())).toBe(true);
    // The same JSON re-serialised with other spacing is other bytes.
    expect(isPaystackSignatureValid(FAKE_PAYSTACK_SECRET_KEY, Buffer.from('{"event": "charge.success","data":{"reference":"VXL-1"}}'), signature)).toBe(false);
    expect(isPaystackSignatureValid('sk_test_other', body, signature)).toBe(false);
    expect(isPaystackSignatureValid(FAKE_PAYSTACK_SECRET_KEY, body, undefined)).toBe(false);
    expect(isPaystackSignatureValid(FAKE_PAYSTACK_SECRET_KEY, body, 'abc')).toBe(false);
    expect(isPaystackSignatureValid(FAKE_PAYSTACK_SECRET_KEY, body, [signature])).toBe(false);
  });
});
