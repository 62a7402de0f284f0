import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from './toast';
import { verificationSchema, type Verification } from '../../common/api/payments';
import { minutesSchema, subscriptionStatusSchema } from '../../common/api/subscription';
import { tierName } from '../../common/plans';
import { api, ApiError } from './api-client';
import { withErrorReference } from './error-reference';

/** docs/product.md §3 subscription status view of the signed-in user. */
export const subscriptionQuery = queryOptions({
  queryKey: ['subscription'],
  queryFn: ({ signal }) => api.get('/subscription', subscriptionStatusSchema, signal),
});

/** Metered minutes left this month; asked again whenever shown, since calls use them up. */
export const minutesQuery = queryOptions({
  queryKey: ['subscription', 'minutes'],
  queryFn: ({ signal }) => api.get('/subscription/minutes', minutesSchema, signal),
  staleTime: 0,
});

/** Asks the server to verify the payment with the provider; activates its plan once. */
export function verifyPayment(reference: string): Promise<Verification> {
  return api.post(`/payments/${encodeURIComponent(reference)}/verify`, verificationSchema);
}

/**
 * Verifies a payment the browser has come back from (or kept from before log-in), with docs/product.md §8's
 * notices, and reloads the subscription status. Answers whether the plan is active.
 */
export function useVerifyPaymentWithNotices() {
  const queryClient = useQueryClient();
  return useCallback(
    async (reference: string): Promise<boolean> => {
      toast.info('Verifying payment');
      try {
        const result = await verifyPayment(reference);
        // A status load started before the verification would bring the old plan back: drop it.
        await queryClient.cancelQueries({ queryKey: subscriptionQuery.queryKey });
        queryClient.setQueryData(subscriptionQuery.queryKey, result.subscription);
        if (result.verified) {
          toast.success('Payment verified', { description: `Your ${tierName(result.planType)} subscription has been activated!` });
        } else {
          toast.error('Payment verification failed', { description: result.message });
        }
        return result.verified;
      } catch (error) {
        toast.error('Payment verification failed', { description: error instanceof ApiError ? withErrorReference(error.message, error) : 'Could not verify your payment' });
        return false;
      } finally {
        await queryClient.cancelQueries({ queryKey: subscriptionQuery.queryKey });
        await queryClient.invalidateQueries({ queryKey: subscriptionQuery.queryKey });
      }
    },
    [queryClient],
  );
}
