import { CheckIcon } from 'lucide-react';
import { useId } from 'react';
import { formatNgn, formatUsd, planPrice, plans, tierName, type PaidPlan } from '../../../../common/plans';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';

interface PlanCardProps {
  plan: PaidPlan;
  current: boolean;
  pending: boolean;
  /** Another plan's checkout is being opened. */
  disabled: boolean;
  onSubscribe: () => void;
}

/** One paid plan: its prices in dollars and naira and docs/product.md §9's features; the current tier's button reads 'Current Plan'. */
export function PlanCard({ plan, current, pending, disabled, onSubscribe }: PlanCardProps) {
  const titleId = useId();
  const price = planPrice(plan);
  return (
    <Card aria-labelledby={titleId} className={cn(current && 'border-primary ring-1 ring-primary')}>
      <CardHeader>
        <CardTitle id={titleId}>{tierName(plan)}</CardTitle>
        <p className="flex items-baseline gap-1">
          <span className="text-3xl font-bold tracking-tight">{formatUsd(price.usdMinor)}</span>
          <span className="text-sm text-muted-foreground">per month</span>
        </p>
        <p className="text-sm text-muted-foreground">{formatNgn(price.ngnMinor)} per month</p>
      </CardHeader>
      <CardContent className="flex-1">
        <ul aria-label={`${tierName(plan)} features`} className="flex flex-col gap-2 text-sm">
          {plans[plan].features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              {feature}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        {current ? (
          <Button className="w-full" variant="outline" disabled>
            Current Plan
          </Button>
        ) : (
          <PendingButton className="w-full" pending={pending} disabled={disabled} onClick={onSubscribe}>
            Subscribe
          </PendingButton>
        )}
      </CardFooter>
    </Card>
  );
}
