import { eq, ne, and } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Database } from '../../../db/client';
import { checkoutPage, notFoundPage, paidPage, type CheckoutForm } from './checkout-page';
import { SANDBOX_TEST_CARDS } from './sandbox-provider';
import { sandboxTransactions } from './schema';

type SandboxTransaction = typeof sandboxTransactions.$inferSelect;

/** The callback URL with ?trxref=…&reference=…, as Paystack sends the browser back. */
function returnUrl(transaction: Pick<SandboxTransaction, 'callbackUrl' | 'reference'>): string {
  const url = new URL(transaction.callbackUrl);
  url.searchParams.set('trxref', transaction.reference);
  url.searchParams.set('reference', transaction.reference);
  return url.toString();
}

/** Expiry as MM/YY (or MM/YYYY), not before this month. */
function isFutureExpiry(expiry: string, now: Date): boolean {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!match) return false;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}

function readForm(body: unknown): CheckoutForm {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const field = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  return { card: field('card'), expiry: field('expiry'), cvv: field('cvv') };
}

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

/**
 * The sandbox's hosted checkout, a page of this server rather than of the web app: a form that
 * works without scripts, posting back here and then sending the browser to the callback URL.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsync<{ db: Database; now?: () => Date }> = async (app, { db, now = () => new Date() }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const find = async (reference: string) => {
    const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.reference, reference));
    return row;
  };

  app.get<{ Params: { reference: string } }>('/checkout/:reference', async (request, reply) => {
    const transaction = await find(request.params.reference);
    if (!transaction) return html(reply, 404, notFoundPage());
    if (transaction.status === 'success') return html(reply, 200, paidPage(returnUrl(transaction)));
    return html(reply, 200, checkoutPage(transaction));
  });

  app.post<{ Params: { reference: string } }>('/checkout/:reference', async (request, reply) => {
    const transaction = await find(request.params.reference);
    if (!transaction) return html(reply, 404, notFoundPage());
    if (transaction.status === 'success') return reply.redirect(returnUrl(transaction), 303);

    const form = readForm(request.body);
    const digits = form.card.replace(/[\s-]/g, '');
    const card = SANDBOX_TEST_CARDS.find((test) => test.number === digits);
    const refuse = (error: string) => html(reply, 422, checkoutPage(transaction, { error, form }));
    if (!card) return refuse('Use one of the test cards below: this checkout takes no real cards.');
    if (!isFutureExpiry(form.expiry, now())) return refuse('Enter an expiry date in the future, as MM/YY.');
    if (form.cvv.trim() !== card.cvv) return refuse(`Enter the test card's CVV (${card.cvv}).`);

    // A declined attempt may be followed by another, as at Paystack's checkout; a paid one is final.
    const paid = card.outcome === 'success';
    const [updated] = await db
      .update(sandboxTransactions)
      .set({
        status: paid ? 'success' : 'failed',
        gatewayResponse: paid ? 'Successful' : 'Declined',
        cardBrand: card.brand,
        last4: card.number.slice(-4),
        paidAt: paid ? now() : null,
      })
      .where(and(eq(sandboxTransactions.reference, transaction.reference), ne(sandboxTransactions.status, 'success')))
      .returning();
    return reply.redirect(returnUrl(updated ?? transaction), 303);
  });

  app.post<{ Params: { reference: string } }>('/checkout/:reference/cancel', async (request, reply) => {
    const transaction = await find(request.params.reference);
    if (!transaction) return html(reply, 404, notFoundPage());
    // Leaving the checkout changes nothing: an unpaid transaction stays abandoned (or failed).
    return reply.redirect(returnUrl(transaction), 303);
  });
};
