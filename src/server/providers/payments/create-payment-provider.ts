import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { PaymentProvider } from './payment-provider';
import { createPaystackProvider } from './paystack/paystack-provider';
import { createSandboxProvider } from './sandbox/sandbox-provider';

/** The provider PAYMENTS names; config.ts has already refused paystack without its secret key. */
export function createPaymentProvider(config: Config, db: Database): PaymentProvider {
  if (config.PAYMENTS === 'paystack') return createPaystackProvider({ secretKey: config.PAYSTACK_SECRET_KEY!, apiUrl: config.PAYSTACK_API_URL });
  return createSandboxProvider({ db });
}
