import type http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import { startFakeHttpServer, type FakeHttpServer } from '../fake-http-server';

/**
 * A fake of Paystack's Transactions API (https://api.paystack.co) answering the documented request
 * and response shapes (docs/providers.md#paystack, PaystackOSS/openapi), errors included: 401 Invalid
 * key, 400 validation errors (missing_params, duplicate_reference), an unknown reference (400
 * "Transaction reference not found", or 404: both readings are seen; `notFoundStatus` picks one).
 * Tests point PAYSTACK_API_URL at it, complete or decline its transactions as a customer would at
 * the checkout, build signed charge.success webhooks, read what it was sent, and make it fail.
 */

export const FAKE_PAYSTACK_SECRET_KEY = 'sk_test_5f1c0a9e7d3b4c2a8e6f0b1d9c7a5e3f2b4d6a8c';

/** Paystack's published test cards (docs/providers.md#paystack). */
export const TEST_CARDS = {
  success: { number: '4084084084084081', cvv: '408', brand: 'visa', last4: '4081' },
  declined: { number: '4084080000005408', cvv: '001', brand: 'visa', last4: '5408' },
} as const;

export type FakeTransactionStatus = 'success' | 'failed' | 'abandoned' | 'ongoing' | 'pending' | 'processing' | 'queued' | 'reversed';

export interface FakeTransaction {
  id: number;
  reference: string;
  accessCode: string;
  email: string;
  /** Kobo (or the minor unit of `currency`). */
  amount: number;
  currency: string;
  callbackUrl: string | null;
  metadata: unknown;
  status: FakeTransactionStatus;
  gatewayResponse: string | null;
  paidAt: string | null;
  createdAt: string;
  card: { brand: string; last4: string } | null;
}

export interface RecordedPaystackRequest {
  method: string;
  path: string;
  /** The bearer token sent, or null. */
  bearer: string | null;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

const CURRENCIES = new Set(['NGN', 'GHS', 'ZAR', 'KES', 'USD']);
const REFERENCE = /^[A-Za-z0-9.=-]+$/;

const json = (status: number, body: unknown): FakeAnswer => ({ status, body });
const validation = (message: string, code: string) => json(400, { status: false, message, type: 'validation_error', code });

export class PaystackFake {
  readonly requests: RecordedPaystackRequest[] = [];
  readonly transactions = new Map<string, FakeTransaction>();
  private readonly interceptors: { method: string; path: string; answer: FakeAnswer }[] = [];
  private server?: FakeHttpServer;
  private nextId = 4_099_260_000;
  url = '';

  constructor(private readonly options: { notFoundStatus?: 400 | 404; secretKey?: string } = {}) {}

  static async start(options?: { notFoundStatus?: 400 | 404; secretKey?: string }): Promise<PaystackFake> {
    const fake = new PaystackFake(options);
    await fake.listen();
    return fake;
  }

  get secretKey() {
    return this.options.secretKey ?? FAKE_PAYSTACK_SECRET_KEY;
  }

  /** The next request to method and path (the path without its query) is answered with this instead. */
  failNext(method: string, path: string, answer: FakeAnswer) {
    this.interceptors.push({ method, path, answer });
  }

  requestsTo(method: string, pathPrefix: string) {
    return this.requests.filter((request) => request.method === method && request.path.startsWith(pathPrefix));
  }

  /** The customer pays at the checkout with a test card: the success card pays, the declined one fails. */
  pay(reference: string, card: keyof typeof TEST_CARDS = 'success', change: { amount?: number; currency?: string } = {}) {
    const transaction = this.transaction(reference);
    const used = TEST_CARDS[card];
    transaction.card = { brand: used.brand, last4: used.last4 };
    if (change.amount !== undefined) transaction.amount = change.amount;
    if (change.currency !== undefined) transaction.currency = change.currency;
    if (card === 'success') {
      transaction.status = 'success';
      transaction.gatewayResponse = 'Successful';
      transaction.paidAt = new Date().toISOString();
    } else {
      transaction.status = 'failed';
      transaction.gatewayResponse = 'Declined';
    }
    return transaction;
  }

  /** Sets a transaction's status as Paystack would report it (ongoing, reversed, …). */
  setStatus(reference: string, status: FakeTransactionStatus) {
    this.transaction(reference).status = status;
  }

  /** The charge.success event Paystack posts for a paid transaction: the raw body and its signature. */
  chargeSuccessWebhook(reference: string, secretKey = this.secretKey): { body: string; signature: string } {
    const body = JSON.stringify({ event: 'charge.success', data: this.transactionData(this.transaction(reference)) });
    return { body, signature: createHmac('sha512', secretKey).update(body).digest('hex') };
  }

  async close() {
    await this.server?.close();
  }

  private transaction(reference: string): FakeTransaction {
    const transaction = this.transactions.get(reference);
    if (!transaction) throw new Error(`the Paystack fake has no transaction ${reference}`);
    return transaction;
  }

  private async listen() {
    this.server = await startFakeHttpServer((request, rawBody) => this.handle(request, rawBody));
    this.url = this.server.url;
  }

  private handle(request: http.IncomingMessage, rawBody: string): FakeAnswer {
    const url = new URL(request.url ?? '/', 'http://fake');
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7) : null;
    let body: unknown = undefined;
    if (rawBody) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = rawBody;
      }
    }
    const recorded: RecordedPaystackRequest = { method: request.method ?? 'GET', path: url.pathname, bearer, body };
    this.requests.push(recorded);

    const index = this.interceptors.findIndex((entry) => entry.method === recorded.method && entry.path === recorded.path);
    if (index >= 0) return this.interceptors.splice(index, 1)[0]!.answer;

    if (bearer !== this.secretKey) return json(401, { status: false, message: 'Invalid key' });

    if (recorded.method === 'POST' && recorded.path === '/transaction/initialize') return this.initialize(body);
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(recorded.path);
    if (recorded.method === 'GET' && verify) return this.verify(decodeURIComponent(verify[1]!));
    return json(404, { status: false, message: 'Not found' });
  }

  private initialize(body: unknown): FakeAnswer {
    if (!body || typeof body !== 'object') return validation('Invalid request body', 'invalid_params');
    const fields = body as Record<string, unknown>;
    if (typeof fields.email !== 'string' || fields.email === '') return validation('Email Address is required', 'missing_params');
    const amount = typeof fields.amount === 'string' ? Number(fields.amount) : fields.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) return validation('Invalid Amount Sent', 'invalid_params');
    const currency = fields.currency === undefined ? 'NGN' : fields.currency;
    if (typeof currency !== 'string' || !CURRENCIES.has(currency)) return validation('Currency not supported by merchant', 'unsupported_currency');
    const reference = fields.reference === undefined ? randomBytes(8).toString('hex') : fields.reference;
    if (typeof reference !== 'string' || !REFERENCE.test(reference)) return validation('Invalid transaction reference', 'invalid_params');
    if (this.transactions.has(reference)) return validation('Duplicate Transaction Reference', 'duplicate_reference');

    const accessCode = randomBytes(8).toString('hex');
    this.transactions.set(reference, {
      id: this.nextId++,
      reference,
      accessCode,
      email: fields.email,
      amount,
      currency,
      callbackUrl: typeof fields.callback_url === 'string' ? fields.callback_url : null,
      metadata: fields.metadata ?? null,
      // Paystack reports a checkout nobody has paid at as abandoned.
      status: 'abandoned',
      gatewayResponse: null,
      paidAt: null,
      createdAt: new Date().toISOString(),
      card: null,
    });
    return json(200, {
      status: true,
      message: 'Authorization URL created',
      data: { authorization_url: `${this.url}/checkout/${accessCode}`, access_code: accessCode, reference },
    });
  }

  private verify(reference: string): FakeAnswer {
    const transaction = this.transactions.get(reference);
    if (!transaction) {
      if (this.options.notFoundStatus === 404) return json(404, { status: false, message: 'Transaction reference not found' });
      return validation('Transaction reference not found', 'transaction_not_found');
    }
    return json(200, { status: true, message: 'Verification successful', data: this.transactionData(transaction) });
  }

  private transactionData(transaction: FakeTransaction) {
    return {
      id: transaction.id,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      receipt_number: null,
      amount: transaction.amount,
      requested_amount: transaction.amount,
      message: null,
      gateway_response: transaction.gatewayResponse,
      paid_at: transaction.paidAt,
      paidAt: transaction.paidAt,
      created_at: transaction.createdAt,
      createdAt: transaction.createdAt,
      channel: 'card',
      currency: transaction.currency,
      ip_address: '127.0.0.1',
      metadata: transaction.metadata,
      fees: transaction.status === 'success' ? Math.round(transaction.amount * 0.015) : null,
      authorization: transaction.card
        ? {
            authorization_code: `AUTH_${transaction.accessCode}`,
            bin: '408408',
            last4: transaction.card.last4,
            exp_month: '12',
            exp_year: '2030',
            channel: 'card',
            card_type: `${transaction.card.brand} `,
            bank: 'TEST BANK',
            country_code: 'NG',
            brand: transaction.card.brand,
            reusable: true,
            signature: `SIG_${transaction.accessCode}`,
            account_name: null,
          }
        : {},
      customer: { id: 181873746, first_name: null, last_name: null, email: transaction.email, customer_code: 'CUS_fake', phone: null, metadata: null, risk_action: 'default' },
      plan: null,
      split: {},
      order_id: null,
    };
  }
}
