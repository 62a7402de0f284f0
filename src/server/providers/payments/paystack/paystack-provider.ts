import { paymentStatuses, type PaymentStatus } from '../../../../common/api/payments';
import { describeCard, PaymentError, type PaymentProvider, type ProviderTransaction } from '../payment-provider';

const REQUEST_TIMEOUT_MS = 15_000;

export interface PaystackSettings {
  /** sk_test_… or sk_live_…. */
  secretKey: string;
  /** https://api.paystack.co unless a test points it at tests/fakes/paystack. */
  apiUrl: string;
}

interface PaystackAnswer {
  httpStatus: number;
  body: { status?: unknown; message?: unknown; code?: unknown; data?: unknown } | null;
}

interface PaystackTransactionData {
  reference?: unknown;
  status?: unknown;
  amount?: unknown;
  currency?: unknown;
  paid_at?: unknown;
  paidAt?: unknown;
  gateway_response?: unknown;
  authorization?: { last4?: unknown; brand?: unknown; card_type?: unknown } | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function reasonOf(answer: PaystackAnswer): string {
  return text(answer.body?.message) ?? `HTTP ${answer.httpStatus}`;
}

/** Paystack answered an unknown reference with 404, or with 400 "Transaction reference not found" (both are seen). */
function isNotFound(answer: PaystackAnswer): boolean {
  if (answer.httpStatus === 404) return true;
  const code = text(answer.body?.code);
  const message = text(answer.body?.message)?.toLowerCase() ?? '';
  return answer.httpStatus === 400 && (code === 'transaction_not_found' || message.includes('not found'));
}

function toTransaction(data: PaystackTransactionData, reference: string): ProviderTransaction {
  const status = text(data.status);
  if (!status || !(paymentStatuses as readonly string[]).includes(status)) {
    throw new PaymentError('unreachable', `Paystack answered an unknown transaction status (${String(data.status)})`);
  }
  if (typeof data.amount !== 'number' || !Number.isInteger(data.amount)) throw new PaymentError('unreachable', 'Paystack answered without the amount');
  const paidAt = text(data.paid_at) ?? text(data.paidAt);
  const paidDate = paidAt ? new Date(paidAt) : null;
  return {
    reference: text(data.reference) ?? reference,
    status: status as PaymentStatus,
    amountMinor: data.amount,
    currency: text(data.currency) ?? '',
    paidAt: paidDate && !Number.isNaN(paidDate.getTime()) ? paidDate : null,
    paymentMethod: describeCard(text(data.authorization?.brand) ?? text(data.authorization?.card_type), text(data.authorization?.last4)),
    gatewayResponse: text(data.gateway_response),
  };
}

/**
 * PAYMENTS=paystack: transactions initialised in kobo and verified by reference through Paystack's
 * REST API, over plain fetch with a configurable host (the official SDK hard-codes its host).
 */
export function createPaystackProvider({ secretKey, apiUrl }: PaystackSettings): PaymentProvider {
  const base = apiUrl.replace(/\/+$/, '');

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<PaystackAnswer> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const reason = (error as Error | null)?.name === 'TimeoutError' ? 'no answer in time' : ((error as Error | null)?.message ?? String(error));
      throw new PaymentError('unreachable', `Paystack could not be reached: ${reason}`, { cause: error });
    }
    let parsed: PaystackAnswer['body'] = null;
    try {
      const value: unknown = JSON.parse(await response.text());
      if (value && typeof value === 'object') parsed = value as PaystackAnswer['body'];
    } catch {
      // A body that is not JSON leaves only the HTTP status to go on.
    }
    return { httpStatus: response.status, body: parsed };
  }

  function failure(answer: PaystackAnswer): PaymentError {
    if (answer.httpStatus === 401) return new PaymentError('rejected', `Paystack rejected Voxline's secret key (${reasonOf(answer)})`);
    if (answer.httpStatus >= 500 || answer.body === null) return new PaymentError('unreachable', `Paystack answered ${answer.httpStatus}: ${reasonOf(answer)}`);
    return new PaymentError('rejected', `Paystack refused: ${reasonOf(answer)}`);
  }

  return {
    name: 'paystack',
    displayName: 'Paystack',

    async initialize({ reference, email, amountMinor, currency, callbackUrl, metadata }) {
      const answer = await call('POST', '/transaction/initialize', {
        email,
        amount: amountMinor,
        currency,
        reference,
        callback_url: callbackUrl,
        metadata,
        channels: ['card'],
      });
      if (answer.httpStatus !== 200 || answer.body?.status !== true) throw failure(answer);
      const url = text((answer.body.data as { authorization_url?: unknown } | undefined)?.authorization_url);
      if (!url) throw new PaymentError('unreachable', 'Paystack answered without a checkout address');
      return { paymentUrl: url };
    },

    async verify(reference) {
      const answer = await call('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
      if (isNotFound(answer)) throw new PaymentError('not_found', `Paystack has no transaction ${reference}`);
      // The top-level status only says the request worked; the payment's own is data.status.
      if (answer.httpStatus !== 200 || answer.body?.status !== true) throw failure(answer);
      const data = answer.body.data;
      if (!data || typeof data !== 'object') throw new PaymentError('unreachable', 'Paystack answered without the transaction');
      return toTransaction(data as PaystackTransactionData, reference);
    },
  };
}
