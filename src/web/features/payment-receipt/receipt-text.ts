import type { Receipt } from '../../../common/api/payments';
import { formatNgn, formatUsd, tierName } from '../../../common/plans';

const toMinor = (decimal: string) => Math.round(Number(decimal) * 100);

/** docs/product.md §9: receipt dates in local date and time, 'N/A' when missing. */
export function receiptDate(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleString();
}

export function receiptAmounts(receipt: Receipt) {
  return { usd: formatUsd(toMinor(receipt.amountUsd)), ngn: formatNgn(toMinor(receipt.amountNgn)) };
}

/** How the receipt names the way the customer paid: the card, and who took it. */
export function receiptPaymentMethod(receipt: Receipt): string {
  return receipt.paymentMethod ? `${receipt.paymentMethod} via ${receipt.paymentProcessor}` : receipt.paymentProcessor;
}

export const RECEIPT_THANKS = 'Thank you for subscribing to Voxline. Keep this receipt for your records.';
export const RECEIPT_SUPPORT = 'Questions about this payment? Contact Voxline support and quote your receipt number.';

/** docs/product.md §9: the download is a plain-text file named with the brand and the reference. */
function receiptFileName(receipt: Receipt): string {
  return `${receipt.company}-receipt-${receipt.reference}.txt`;
}

/** The receipt as plain text, the same facts as the card in the same order. */
function receiptText(receipt: Receipt): string {
  const { usd, ngn } = receiptAmounts(receipt);
  const lines = [
    receipt.company,
    'Subscription Payment Confirmation',
    ...(receipt.status === 'success' ? ['Payment Successful'] : []),
    '',
    `Receipt Number: ${receipt.reference}`,
    `Date: ${receiptDate(receipt.transactionDate)}`,
    `Customer: ${receipt.customerName}`,
    `Email: ${receipt.customerEmail}`,
    '',
    'Payment Details',
    `Plan: ${tierName(receipt.planType)}`,
    `Amount (USD): ${usd}`,
    `Amount (NGN): ${ngn}`,
    `Payment Method: ${receiptPaymentMethod(receipt)}`,
    ...(receipt.subscription
      ? ['', 'Subscription Details', `Tier: ${tierName(receipt.subscription.tier)}`, `Expires On: ${receiptDate(receipt.subscription.expiresAt)}`]
      : []),
    '',
    RECEIPT_THANKS,
    RECEIPT_SUPPORT,
  ];
  return `${lines.join('\n')}\n`;
}

/** Saves the receipt as a text file through the browser's download. */
export function downloadReceipt(receipt: Receipt) {
  const url = URL.createObjectURL(new Blob([receiptText(receipt)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = receiptFileName(receipt);
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has its own copy once started; the address is not needed after this turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
