import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import type { SubscriptionStatus } from '../../../../common/api/subscription';
import { formatDuration } from '../../../../common/calls';
import { paidPlans, planPrice, tierName, type PaidPlan } from '../../../../common/plans';
import { PageLoading } from '../../../components/page-loading';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api-client';
import { browserLocation } from '../../../lib/browser-location';
import { withErrorReference } from '../../../lib/error-reference';
import { useSession } from '../../../lib/session';
import { minutesQuery, subscriptionQuery, useVerifyPaymentWithNotices } from '../../../lib/subscription';
import { useCreatePaymentSession } from '../api/create-payment-session';
import { LoadFailed } from '../../../components/load-failed';
import { StorageUsed } from '../storage/storage-used';
import { PlanCard } from './plan-card';

/** docs/product.md §2 Settings → Subscription: the status and the two plans; Subscribe goes to the provider's checkout. */
export function SubscriptionTab() {
  const status = useQuery(subscriptionQuery);
  useReturnFromCheckout();

  useEffect(() => {
    if (!status.isError) return;
    // docs/product.md §8: a lost session and any other failure have their own notices.
    if (status.error instanceof ApiError && status.error.status === 401) {
      toast.error('Authentication Error', { id: 'subscription-status', description: 'You must be logged in to check subscription status' });
    } else {
      toast.error('Error', { id: 'subscription-status', description: withErrorReference('Failed to check subscription status', status.error) });
    }
  }, [status.isError, status.error]);

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Subscription</CardTitle>
          <CardDescription>Your plan, what is left of this month's calling minutes, and the plans you can move to.</CardDescription>
        </CardHeader>
        <CardContent>
          {status.isPending ? (
            <PageLoading />
          ) : status.isError ? (
            <LoadFailed message="Failed to check subscription status" onRetry={() => void status.refetch()} />
          ) : (
            <StatusDetails status={status.data} />
          )}
        </CardContent>
      </Card>
      {status.isSuccess && <Plans currentTier={status.data.tier} />}
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function StatusDetails({ status }: { status: SubscriptionStatus }) {
  const minutes = useQuery(minutesQuery);
  return (
    <dl aria-label="Subscription status" className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
      <Row label="Current plan">{tierName(status.tier)}</Row>
      <Row label="Status">
        <Badge variant={status.isActive ? 'default' : 'secondary'}>{status.isActive ? 'Active' : 'Inactive'}</Badge>
      </Row>
      <Row label="Expires on">{status.expiryDate ? new Date(status.expiryDate).toLocaleDateString() : 'No expiry'}</Row>
      <Row label="Minutes left this month">
        {minutes.isSuccess ? (minutes.data.secondsLeft === null ? 'Unlimited' : `${formatDuration(minutes.data.secondsLeft)} of ${minutes.data.monthlyMinutes}:00`) : '…'}
      </Row>
      <Row label="Storage used">
        <StorageUsed />
      </Row>
    </dl>
  );
}

function Plans({ currentTier }: { currentTier: SubscriptionStatus['tier'] }) {
  const session = useSession();
  const createSession = useCreatePaymentSession();
  const choosing = createSession.isPending ? createSession.variables.planType : null;

  function subscribe(plan: PaidPlan) {
    const email = session.data?.user.email;
    if (!email) {
      toast.error('Authentication Error', { description: 'Your email address could not be retrieved. Please try again later.' });
      return;
    }
    const price = planPrice(plan);
    createSession.mutate(
      { planType: plan, amountUSD: price.usdMinor / 100, amountNGN: price.ngnMinor / 100, callbackUrl: `${window.location.origin}/payment/receipt` },
      {
        onSuccess: ({ paymentUrl }) => browserLocation.assign(paymentUrl),
        onError: (error) => {
          if (error instanceof ApiError && error.status > 0) {
            toast.error('Payment Error', { description: withErrorReference(`Failed to create payment session: ${error.message}`, error) });
          } else {
            toast.error('Error', { description: 'Failed to start subscription process' });
          }
        },
      },
    );
  }

  return (
    <div className="grid gap-6 md:grid-cols-2">
      {paidPlans.map((plan) => (
        <PlanCard
          key={plan}
          plan={plan}
          current={plan === currentTier}
          pending={choosing === plan}
          disabled={choosing !== null}
          onSubscribe={() => subscribe(plan)}
        />
      ))}
    </div>
  );
}

/**
 * docs/product.md §4: back from the checkout with ?reference=…, the payment is verified, the parameter
 * cleared (whatever the outcome, so a reload does not verify it again) and the status reloaded.
 */
function useReturnFromCheckout() {
  const [params, setParams] = useSearchParams();
  const verifyWithNotices = useVerifyPaymentWithNotices();
  const reference = params.get('reference');
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!reference || handled.current === reference) return;
    handled.current = reference;
    void verifyWithNotices(reference).finally(() =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('reference');
          next.delete('trxref');
          return next;
        },
        { replace: true },
      ),
    );
  }, [reference, verifyWithNotices, setParams]);
}
