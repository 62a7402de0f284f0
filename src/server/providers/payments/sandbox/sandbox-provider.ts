import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { isUniqueViolation } from '../../../db/errors';
import { describeCard, PaymentError, type PaymentProvider } from '../payment-provider';
import { sandboxTransactions } from './schema';

/** Paystack's published test cards (docs/providers.md#paystack): the sandbox accepts these and no others. */
export const SANDBOX_TEST_CARDS = [
  { number: '4084084084084081', cvv: '408', outcome: 'success', brand: 'visa' },
  { number: '4084080000005408', cvv: '001', outcome: 'declined', brand: 'visa' },
] as const;

function checkoutPath(reference: string): string {
  return `/sandbox/checkout/${encodeURIComponent(reference)}`;
}

/**
 * PAYMENTS=sandbox (the default): a test checkout served by this server at /sandbox/checkout/:reference
 * (./checkout-routes.ts), keeping its transactions in its own table as a provider does on its side.
 * Nobody is charged; the card form takes the test cards a Paystack test account takes. The checkout
 * is offered on the callback URL's origin (always this site's own), so that the browser comes back
 * to the address it left from, the Vite dev server included.
 */
export function createSandboxProvider({ db }: { db: Database }): PaymentProvider {
  return {
    name: 'sandbox',
    displayName: 'Voxline Sandbox (test payments)',

    async initialize({ reference, email, amountMinor, currency, callbackUrl, metadata }) {
      try {
        // A checkout nobody has paid at reads as abandoned, as Paystack reports it.
        await db.insert(sandboxTransactions).values({ reference, email, amountMinor, currency, callbackUrl, metadata, status: 'abandoned' });
      } catch (error) {
        if (isUniqueViolation(error)) throw new PaymentError('rejected', 'Duplicate Transaction Reference', { cause: error });
        throw error;
      }
      return { paymentUrl: `${new URL(callbackUrl).origin}${checkoutPath(reference)}` };
    },

    async verify(reference) {
      const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.reference, reference));
      if (!row) throw new PaymentError('not_found', `The sandbox has no transaction ${reference}`);
      return {
        reference: row.reference,
        status: row.status,
        amountMinor: row.amountMinor,
        currency: row.currency,
        paidAt: row.paidAt,
        paymentMethod: describeCard(row.cardBrand, row.last4),
        gatewayResponse: row.gatewayResponse,
      };
    },
  };
}
