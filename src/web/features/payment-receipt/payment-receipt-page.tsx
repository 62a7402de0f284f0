import { PageHeading } from '../../components/page-heading';

export function PaymentReceiptPage() {
  return <PageHeading title="Payment Receipt" />;
}
