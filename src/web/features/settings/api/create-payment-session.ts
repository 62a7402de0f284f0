import { useMutation } from '@tanstack/react-query';
import { paymentSessionSchema, type CreatePaymentBody } from '../../../../common/api/payments';
import { api } from '../../../lib/api-client';

/** Opens a checkout for the plan; the amounts sent are the ones shown, which the server checks against its own. */
function createPaymentSession(body: CreatePaymentBody) {
  return api.post('/payments', paymentSessionSchema, body);
}

export function useCreatePaymentSession() {
  return useMutation({ mutationFn: createPaymentSession });
}
