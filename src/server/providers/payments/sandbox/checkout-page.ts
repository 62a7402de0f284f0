import { formatNgn, formatUsd, tierName, tiers, type Tier } from '../../../../common/plans';
import type { sandboxTransactions } from './schema';
import { escapeHtml } from '../../../http/escape-html';

type SandboxTransaction = typeof sandboxTransactions.$inferSelect;

export interface CheckoutForm {
  card: string;
  expiry: string;
  cvv: string;
}

const styles = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6fb; color: #111827; }
  @media (prefers-color-scheme: dark) { body { background: #0b1020; color: #e5e7eb; } main { background: #151b2e !important; } input { background: #0b1020; color: inherit; } }
  main { width: min(28rem, calc(100vw - 2rem)); background: #fff; border-radius: 1rem; box-shadow: 0 10px 30px rgb(0 0 0 / 0.08); padding: 2rem; margin: 2rem 0; }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  .mode { display: inline-block; font-size: 0.75rem; font-weight: 600; background: #fef3c7; color: #92400e; border-radius: 999px; padding: 0.125rem 0.625rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.5rem 1rem; margin: 1.5rem 0; }
  dt { color: #6b7280; } dd { margin: 0; text-align: right; font-weight: 500; overflow-wrap: anywhere; }
  form { display: flex; flex-direction: column; gap: 0.875rem; }
  label { display: flex; flex-direction: column; gap: 0.375rem; font-size: 0.875rem; font-weight: 500; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
  input { font: inherit; padding: 0.625rem 0.75rem; border: 1px solid #d1d5db; border-radius: 0.5rem; }
  button { font: inherit; font-weight: 600; padding: 0.75rem; border-radius: 0.5rem; border: 0; cursor: pointer; }
  .pay { background: #2563eb; color: #fff; }
  .cancel { background: transparent; color: inherit; border: 1px solid #d1d5db; width: 100%; margin-top: 0.75rem; }
  .error { background: #fee2e2; color: #991b1b; border-radius: 0.5rem; padding: 0.75rem; margin: 0; }
  .cards { font-size: 0.8125rem; color: #6b7280; margin-top: 1.5rem; }
  .cards ul { padding-left: 1.25rem; margin: 0.5rem 0 0; }
  code { font-size: 0.8125rem; }
  a { color: #2563eb; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

function planOf(transaction: SandboxTransaction): string {
  const plan = transaction.metadata.plan;
  return typeof plan === 'string' && (tiers as readonly string[]).includes(plan) ? tierName(plan as Tier) : 'Subscription';
}

function usdOf(transaction: SandboxTransaction): number | null {
  const usd = transaction.metadata.amount_usd_minor;
  return typeof usd === 'number' ? usd : null;
}

/** The hosted checkout: what is bought, for how much, by whom, and a card form for the test cards. */
export function checkoutPage(transaction: SandboxTransaction, options: { error?: string; form?: Partial<CheckoutForm> } = {}): string {
  const reference = encodeURIComponent(transaction.reference);
  const amount = transaction.currency === 'NGN' ? formatNgn(transaction.amountMinor) : `${transaction.currency} ${(transaction.amountMinor / 100).toFixed(2)}`;
  const usd = usdOf(transaction);
  const value = (field: keyof CheckoutForm) => escapeHtml(options.form?.[field] ?? '');
  return page(
    'Voxline Sandbox Checkout',
    `<p class="mode">Test mode: no real card is charged</p>
<h1>Voxline Sandbox Checkout</h1>
<dl>
  <dt>Plan</dt><dd>${escapeHtml(planOf(transaction))}</dd>
  <dt>Amount (NGN)</dt><dd>${escapeHtml(amount)}</dd>
  ${usd === null ? '' : `<dt>Amount (USD)</dt><dd>${escapeHtml(formatUsd(usd))}</dd>`}
  <dt>Email</dt><dd>${escapeHtml(transaction.email)}</dd>
</dl>
<form method="post" action="/sandbox/checkout/${reference}" aria-label="Card details">
  ${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
  <label>Card Number<input name="card" inputmode="numeric" autocomplete="cc-number" required value="${value('card')}" placeholder="4084 0840 8408 4081"></label>
  <div class="row">
    <label>Expiry (MM/YY)<input name="expiry" autocomplete="cc-exp" required value="${value('expiry')}" placeholder="12/30"></label>
    <label>CVV<input name="cvv" inputmode="numeric" autocomplete="cc-csc" required value="${value('cvv')}" placeholder="408"></label>
  </div>
  <button class="pay" type="submit">Pay ${escapeHtml(amount)}</button>
</form>
<form method="post" action="/sandbox/checkout/${reference}/cancel">
  <button class="cancel" type="submit">Cancel</button>
</form>
<section class="cards" aria-label="Test cards">
  <strong>Test cards</strong> (any future expiry date):
  <ul>
    <li><code>4084 0840 8408 4081</code>, CVV <code>408</code>: payment succeeds</li>
    <li><code>4084 0800 0000 5408</code>, CVV <code>001</code>: card declined</li>
  </ul>
</section>`,
  );
}

/** A checkout already paid: nothing more to do here. */
export function paidPage(returnUrl: string): string {
  return page(
    'Payment complete',
    `<h1>This payment is complete</h1>
<p>Nothing more is charged.</p>
<p><a href="${escapeHtml(returnUrl)}">Return to Voxline</a></p>`,
  );
}

export function notFoundPage(): string {
  return page('Payment not found', '<h1>Payment not found</h1>\n<p>This payment link is not valid. Start again from Voxline.</p>');
}
