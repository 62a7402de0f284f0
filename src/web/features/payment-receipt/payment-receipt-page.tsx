import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '../../lib/toast';
import type { Receipt } from '../../../common/api/payments';
import { PageHeading } from '../../components/page-heading';
import { ApiError } from '../../lib/api-client';
import { withErrorReference } from '../../lib/error-reference';
import { subscriptionQuery, verifyPayment } from '../../lib/subscription';
import { getReceipt } from './api/get-receipt';
import { ReceiptCard } from './components/receipt-card';

const SUBSCRIPTION_SETTINGS = '/settings?tab=subscription';

/** Where the receipt shown came from, kept in history state once the URL drops ?reference=. */
interface ReceiptLocationState {
  reference?: string;
}

/**
 * docs/product.md §4 payment receipt flow: read the reference, verify the payment, fetch its receipt and show
 * it (the URL then replaced by /payment/receipt). Any failure goes back to the Subscription tab
 * with its notice.
 */
export function PaymentReceiptPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reference = params.get('reference') ?? (location.state as ReceiptLocationState | null)?.reference ?? null;
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [loading, setLoading] = useState(true);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const leave = (title: string, description: string) => {
      toast.error(title, { description });
      void navigate(SUBSCRIPTION_SETTINGS, { replace: true });
    };

    async function load(reference: string) {
      let verified;
      try {
        verified = await verifyPayment(reference);
      } catch (error) {
        if (error instanceof ApiError && error.status > 0) return leave('Payment Verification Failed', withErrorReference(error.message || 'Could not verify your payment', error));
        return leave('Error', 'An error occurred while fetching your receipt');
      }
      await queryClient.invalidateQueries({ queryKey: subscriptionQuery.queryKey });
      if (!verified.verified) return leave('Payment Verification Failed', verified.message || 'Could not verify your payment');

      let found: Receipt;
      try {
        found = await getReceipt(reference);
      } catch (error) {
        if (error instanceof ApiError && error.status > 0) return leave('Receipt Generation Failed', withErrorReference('Could not generate receipt for your payment', error));
        return leave('Error', 'An error occurred while fetching your receipt');
      }
      setReceipt(found);
      setLoading(false);
      void navigate('/payment/receipt', { replace: true, state: { reference } satisfies ReceiptLocationState });
      if (found.status === 'success') toast.success('Payment Successful', { description: 'Your subscription has been activated!' });
    }

    if (!reference) leave('Error', 'Payment reference not found');
    else void load(reference);
  }, [reference, navigate, queryClient]);

  return (
    <>
      <PageHeading title="Payment Receipt" />
      {loading ? (
        <p role="status" className="p-8 text-center text-muted-foreground">
          Processing your payment...
        </p>
      ) : (
        <ReceiptCard receipt={receipt} onClose={() => void navigate(SUBSCRIPTION_SETTINGS)} />
      )}
    </>
  );
}
