import { useEffect } from 'react';
import { takePendingPaymentReference } from '../lib/pending-payment';
import { useVerifyPaymentWithNotices } from '../lib/subscription';

/**
 * docs/product.md §2: a payment reference kept while signed out (/payment/callback or the guard) is verified
 * once the user is signed in, on whichever page they land.
 */
export function PendingPaymentVerifier() {
  const verifyWithNotices = useVerifyPaymentWithNotices();

  useEffect(() => {
    const reference = takePendingPaymentReference();
    if (reference) void verifyWithNotices(reference);
  }, [verifyWithNotices]);

  return null;
}
