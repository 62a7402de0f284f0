import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PAYMENT_REFERENCE_PATTERN, type PaymentSession, type PaymentStatus, type Receipt, type Verification } from '../../common/api/payments';
import type { SessionUser } from '../../common/api/session';
import { minorToDecimal } from '../../common/money';
import { formatNgn, formatUsd, planPrice, tierName, type PaidPlan } from '../../common/plans';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { extendSubscription, subscriptionStatus } from '../plans/service';
import { PaymentError, type PaymentProvider, type ProviderTransaction } from '../providers/payments/payment-provider';
import { payments } from './schema';

type PaymentRow = typeof payments.$inferSelect;

/** docs/product.md §3 receipt: the company named on it. */
const RECEIPT_COMPANY = 'Voxline';

/**
 * How a payment ends (voxline_payments_total): its plan activated, or the provider's last word
 * against it. A payment still pending has no outcome yet.
 */
export const paymentOutcomes = ['succeeded', 'failed', 'abandoned', 'reversed'] as const;
export type PaymentOutcome = (typeof paymentOutcomes)[number];

const FINAL_STATUSES: Partial<Record<PaymentStatus, PaymentOutcome>> = { failed: 'failed', abandoned: 'abandoned', reversed: 'reversed' };

export interface PaymentServiceDependencies {
  db: Database;
  provider: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Told each payment's outcome, once: when a verification first finds it. */
  countOutcome?: (outcome: PaymentOutcome) => void;
}

export interface PaymentSessionRequest {
  planType: PaidPlan;
  /** The price the client shows, in major units; must be the server's. */
  amountUSD?: number | undefined;
  amountNGN?: number | undefined;
  callbackUrl?: string | undefined;
}

/** How Paystack's transaction statuses read to the person who paid. */
const STATUS_MESSAGES: Record<Exclude<PaymentStatus, 'success'>, string> = {
  failed: 'The payment was declined',
  abandoned: 'The payment was not completed',
  ongoing: 'The payment is still being processed. Please check again shortly.',
  pending: 'The payment is still being processed. Please check again shortly.',
  processing: 'The payment is still being processed. Please check again shortly.',
  queued: 'The payment is still being processed. Please check again shortly.',
  reversed: 'The payment was reversed',
};

const paymentNotFound = () => AppError.notFound('Payment not found');

/** A reference as the server makes them: Paystack's alphabet, unguessable. */
function newPaymentReference(): string {
  return `VXL-${randomBytes(12).toString('hex')}`;
}

/** Amounts in major units compared in minor units, so 100, 100.0 and 100.001 agree with 10000 cents only when they round there. */
const toMinor = (major: number) => Math.round(major * 100);

function providerFailure(error: unknown): never {
  if (error instanceof PaymentError) throw AppError.providerFailed(error.message, error);
  throw error;
}

/**
 * Payments for plans (docs/architecture.md#plans-and-metering): the server sets the price and the reference, the provider
 * takes the card, and a verification (the browser's return, the receipt page, or the provider's
 * webhook) activates the plan once: only when the provider says success with our amount and
 * currency, and only for the user the reference was made for.
 */
export class PaymentService {
  private readonly activatedListeners: ((userId: string) => void)[] = [];

  constructor(private readonly deps: PaymentServiceDependencies) {}

  /** Called once for each payment that activates its plan, with the user whose plan it is. */
  onActivated(listener: (userId: string) => void) {
    this.activatedListeners.push(listener);
  }

  get providerName() {
    return this.deps.provider.name;
  }

  /**
   * Opens a checkout for the plan at the server's price. `allowedOrigins` are this site's own
   * addresses: the provider may send the browser back to them only.
   */
  async createSession(user: SessionUser, request: PaymentSessionRequest, allowedOrigins: string[]): Promise<PaymentSession> {
    const { db, provider } = this.deps;
    const plan = request.planType;
    const price = planPrice(plan);
    if (request.amountUSD !== undefined && toMinor(request.amountUSD) !== price.usdMinor) {
      throw new AppError(422, 'price_mismatch', `The ${tierName(plan)} plan costs ${formatUsd(price.usdMinor)} a month`, 'amountUSD');
    }
    if (request.amountNGN !== undefined && toMinor(request.amountNGN) !== price.ngnMinor) {
      throw new AppError(422, 'price_mismatch', `The ${tierName(plan)} plan costs ${formatNgn(price.ngnMinor)} a month`, 'amountNGN');
    }
    const callbackUrl = request.callbackUrl ?? `${allowedOrigins[0]}/payment/receipt`;
    if (!allowedOrigins.includes(new URL(callbackUrl).origin)) {
      throw AppError.badRequest('callbackUrl must be an address of this site', 'callbackUrl');
    }

    const reference = newPaymentReference();
    const [row] = (await db
      .insert(payments)
      .values({
        reference,
        userId: user.id,
        plan,
        provider: provider.name,
        amountUsdMinor: price.usdMinor,
        amountMinor: price.ngnMinor,
        currency: 'NGN',
        customerName: user.fullName,
        customerEmail: user.email,
      })
      .returning()) as [PaymentRow];

    try {
      const { paymentUrl } = await provider.initialize({
        reference,
        email: user.email,
        amountMinor: price.ngnMinor,
        currency: 'NGN',
        callbackUrl,
        metadata: { user_id: user.id, plan, amount_usd_minor: price.usdMinor },
      });
      return { reference, paymentUrl, planType: plan, amountUsd: minorToDecimal(row.amountUsdMinor), amountNgn: minorToDecimal(row.amountMinor) };
    } catch (error) {
      await db.delete(payments).where(eq(payments.id, row.id));
      return providerFailure(error);
    }
  }

  /**
   * Asks the provider about the user's payment and activates its plan once. Another user's
   * reference is not found (404). A payment already activated answers the same result again
   * without asking the provider or extending anything.
   */
  async verify(userId: string, reference: string): Promise<Verification> {
    return this.verifyPayment(await this.findPayment(reference, userId));
  }

  /**
   * The provider's webhook says a charge succeeded (its signature already checked). The event is
   * only a hint: the transaction is verified with the provider before anything is activated.
   * Answers false for a reference Voxline never made.
   */
  async verifyFromWebhook(reference: string): Promise<boolean> {
    const payment = PAYMENT_REFERENCE_PATTERN.test(reference) ? await this.findByReference(reference) : undefined;
    if (!payment) {
      this.deps.log.warn({ reference }, 'payment webhook for a reference Voxline did not make');
      return false;
    }
    await this.verifyPayment(payment);
    return true;
  }

  /** The receipt of the user's own successful payment. */
  async receipt(userId: string, reference: string): Promise<Receipt> {
    const payment = await this.findPayment(reference, userId);
    if (!payment.activatedAt) throw new AppError(409, 'payment_not_verified', 'This payment has not been verified as successful');
    return {
      company: RECEIPT_COMPANY,
      reference: payment.reference,
      transactionDate: (payment.paidAt ?? payment.activatedAt).toISOString(),
      customerName: payment.customerName,
      customerEmail: payment.customerEmail,
      planType: payment.plan,
      amountUsd: minorToDecimal(payment.amountUsdMinor),
      amountNgn: minorToDecimal(payment.amountMinor),
      status: 'success',
      paymentProcessor: this.processorName(payment.provider),
      paymentMethod: payment.paymentMethod,
      subscription: payment.grantedTier && payment.grantedUntil ? { tier: payment.grantedTier, expiresAt: payment.grantedUntil.toISOString() } : null,
    };
  }

  private processorName(provider: string): string {
    if (provider === this.deps.provider.name) return this.deps.provider.displayName;
    return provider === 'paystack' ? 'Paystack' : 'Voxline Sandbox (test payments)';
  }

  private async findByReference(reference: string): Promise<PaymentRow | undefined> {
    const [row] = await this.deps.db.select().from(payments).where(eq(payments.reference, reference));
    return row;
  }

  /** The user's own payment; anyone else's answers exactly like a missing one. */
  private async findPayment(reference: string, userId: string): Promise<PaymentRow> {
    if (!PAYMENT_REFERENCE_PATTERN.test(reference)) throw paymentNotFound();
    const row = await this.findByReference(reference);
    if (!row || row.userId !== userId) throw paymentNotFound();
    return row;
  }

  private async verifyPayment(payment: PaymentRow): Promise<Verification> {
    if (payment.activatedAt) return this.verified(payment);
    const { provider, log } = this.deps;
    if (payment.provider !== provider.name) {
      throw new AppError(409, 'provider_mismatch', `This payment was made through ${payment.provider}; it can be verified only while PAYMENTS=${payment.provider}`);
    }

    let transaction: ProviderTransaction;
    try {
      transaction = await provider.verify(payment.reference);
    } catch (error) {
      return providerFailure(error);
    }

    if (transaction.status === 'success') {
      if (transaction.amountMinor !== payment.amountMinor || transaction.currency !== payment.currency) {
        log.error(
          { reference: payment.reference, expected: { amount: payment.amountMinor, currency: payment.currency }, paid: { amount: transaction.amountMinor, currency: transaction.currency } },
          'a payment succeeded with another amount or currency than its plan; nothing activated',
        );
        if (payment.status !== 'success') this.deps.countOutcome?.('failed');
        await this.recordStatus(payment, 'success');
        return this.unverified(payment, 'failed', "The amount paid does not match the plan's price. Please contact support.");
      }
      return this.verified(await this.activate(payment, transaction));
    }

    const outcome = FINAL_STATUSES[transaction.status];
    if (outcome && payment.status !== transaction.status) this.deps.countOutcome?.(outcome);
    await this.recordStatus(payment, transaction.status);
    return this.unverified(payment, transaction.status, STATUS_MESSAGES[transaction.status]);
  }

  /**
   * Marks the payment activated and extends the plan in one transaction. The conditional update
   * lets exactly one of several simultaneous verifications through; the others read its result.
   */
  private async activate(payment: PaymentRow, transaction: ProviderTransaction): Promise<PaymentRow> {
    const { db, log } = this.deps;
    const now = new Date();
    const paidAt = transaction.paidAt ?? now;
    const activated = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(payments)
        .set({ status: 'success', activatedAt: now, paidAt, paymentMethod: transaction.paymentMethod, updatedAt: now })
        .where(and(eq(payments.id, payment.id), isNull(payments.activatedAt)))
        .returning({ id: payments.id });
      if (!claimed) return false;
      const plan = await extendSubscription(tx, payment.userId, payment.plan, paidAt, now);
      await tx.update(payments).set({ grantedTier: plan.tier, grantedUntil: plan.expiresAt }).where(eq(payments.id, payment.id));
      return true;
    });
    if (activated) {
      log.info({ reference: payment.reference, userId: payment.userId, plan: payment.plan }, 'payment verified; plan activated');
      this.deps.countOutcome?.('succeeded');
      for (const listener of this.activatedListeners) listener(payment.userId);
    }
    const current = await this.findByReference(payment.reference);
    if (!current) throw new Error(`payment ${payment.reference} disappeared while it was activated`);
    return current;
  }

  private async recordStatus(payment: PaymentRow, status: PaymentStatus) {
    await this.deps.db
      .update(payments)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), isNull(payments.activatedAt)));
  }

  private async verified(payment: PaymentRow): Promise<Verification> {
    return {
      verified: true,
      status: 'success',
      message: `Your ${tierName(payment.plan)} subscription has been activated!`,
      planType: payment.plan,
      subscription: await subscriptionStatus(this.deps.db, payment.userId),
    };
  }

  private async unverified(payment: PaymentRow, status: PaymentStatus, message: string): Promise<Verification> {
    return { verified: false, status, message, planType: payment.plan, subscription: await subscriptionStatus(this.deps.db, payment.userId) };
  }
}
