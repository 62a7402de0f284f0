import { CheckCircle2Icon, DownloadIcon, PhoneIcon, PrinterIcon, XIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import type { Receipt } from '../../../../common/api/payments';
import { tierName } from '../../../../common/plans';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { downloadReceipt, RECEIPT_SUPPORT, RECEIPT_THANKS, receiptAmounts, receiptDate, receiptPaymentMethod } from '../receipt-text';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium break-all">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-1">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      <dl className="text-sm">{children}</dl>
    </section>
  );
}

/**
 * docs/product.md §2 receipt card: brand, confirmation, the payment and the plan it bought. It is what the
 * print stylesheet prints (data-print-area); its buttons are left out of the print.
 */
export function ReceiptCard({ receipt, onClose }: { receipt: Receipt | null; onClose?: () => void }) {
  const titleId = useId();
  if (!receipt) return <p className="p-8 text-center text-muted-foreground">No receipt data available.</p>;

  const { usd, ngn } = receiptAmounts(receipt);
  const download = () => {
    try {
      downloadReceipt(receipt);
      toast.success('Receipt downloaded');
    } catch {
      toast.error('Download failed', { description: 'Failed to download receipt. Please try again.' });
    }
  };

  return (
    <article data-print-area aria-labelledby={titleId} className="mx-auto flex w-full max-w-2xl flex-col gap-6 rounded-xl border bg-card p-6 text-card-foreground shadow-sm sm:p-8">
      <header className="flex flex-col items-center gap-2 border-b pb-6 text-center">
        <p className="flex items-center gap-2 text-xl font-bold">
          <PhoneIcon className="size-6 text-primary" aria-hidden="true" />
          {receipt.company}
        </p>
        <h2 id={titleId} className="text-lg font-semibold">
          Subscription Payment Confirmation
        </h2>
        {receipt.status === 'success' && (
          <Badge variant="custom" className="border-transparent bg-green-700 text-white">
            <CheckCircle2Icon aria-hidden="true" />
            Payment Successful
          </Badge>
        )}
      </header>

      <dl className="text-sm">
        <Row label="Receipt Number">{receipt.reference}</Row>
        <Row label="Date">{receiptDate(receipt.transactionDate)}</Row>
        <Row label="Customer">{receipt.customerName}</Row>
        <Row label="Email">{receipt.customerEmail}</Row>
      </dl>

      <Section title="Payment Details">
        <Row label="Plan">{tierName(receipt.planType)}</Row>
        <Row label="Amount (USD)">{usd}</Row>
        <Row label="Amount (NGN)">{ngn}</Row>
        <Row label="Payment Method">{receiptPaymentMethod(receipt)}</Row>
      </Section>

      {receipt.subscription && (
        <Section title="Subscription Details">
          <Row label="Tier">{tierName(receipt.subscription.tier)}</Row>
          <Row label="Expires On">{receiptDate(receipt.subscription.expiresAt)}</Row>
        </Section>
      )}

      <footer className="border-t pt-6 text-center text-sm text-muted-foreground">
        <p>{RECEIPT_THANKS}</p>
        <p>{RECEIPT_SUPPORT}</p>
      </footer>

      <div data-print-hidden className="flex flex-wrap justify-end gap-2">
        {onClose && (
          <Button variant="outline" onClick={onClose}>
            <XIcon aria-hidden="true" />
            Close
          </Button>
        )}
        <Button variant="outline" onClick={download}>
          <DownloadIcon aria-hidden="true" />
          Download
        </Button>
        <Button onClick={() => window.print()}>
          <PrinterIcon aria-hidden="true" />
          Print
        </Button>
      </div>
    </article>
  );
}
