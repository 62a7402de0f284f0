import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading';
import { savePendingPaymentReference } from '../../lib/pending-payment';

/** docs/product.md §2: keep the payment reference for after sign-in and go home, replacing this history entry. */
export function PaymentCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reference = params.get('reference');

  useEffect(() => {
    if (reference) savePendingPaymentReference(reference);
    void navigate('/', { replace: true });
  }, [reference, navigate]);

  return <PageLoading />;
}
