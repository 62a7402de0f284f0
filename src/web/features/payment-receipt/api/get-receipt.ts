import { receiptSchema, type Receipt } from '../../../../common/api/payments';
import { api } from '../../../lib/api-client';

/** The receipt of the user's own verified payment. */
export function getReceipt(reference: string): Promise<Receipt> {
  return api.get(`/payments/${encodeURIComponent(reference)}/receipt`, receiptSchema);
}
