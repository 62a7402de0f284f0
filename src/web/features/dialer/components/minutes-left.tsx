import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ClockIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { formatDuration } from '../../../../common/calls';
import { useCall } from '../../../calls/call-context';
import { minutesQuery } from '../../../lib/subscription';

/**
 * The plan's metered minutes left this month (docs/architecture.md#plans-and-metering), read again after each call. With none
 * left, calls to outside numbers are refused, so it offers the way to upgrade.
 */
export function MinutesLeft() {
  const minutes = useQuery(minutesQuery);
  const queryClient = useQueryClient();
  const { call } = useCall();
  const wasOnCall = useRef(false);

  useEffect(() => {
    const onCall = call.phase !== 'idle';
    if (wasOnCall.current && !onCall) void queryClient.invalidateQueries({ queryKey: minutesQuery.queryKey });
    wasOnCall.current = onCall;
  }, [call.phase, queryClient]);

  if (!minutes.isSuccess) return null;
  const { secondsLeft, monthlyMinutes } = minutes.data;
  if (secondsLeft === null) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <ClockIcon className="size-4" aria-hidden="true" />
        Unlimited minutes
      </p>
    );
  }
  if (secondsLeft <= 0) {
    return (
      <p role="status" className="flex flex-wrap items-center gap-2 text-sm font-medium text-destructive">
        <ClockIcon className="size-4" aria-hidden="true" />
        Monthly minutes used up
        <Link to="/settings?tab=subscription" className="text-primary underline underline-offset-4">
          Upgrade your plan
        </Link>
      </p>
    );
  }
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground">
      <ClockIcon className="size-4" aria-hidden="true" />
      Minutes left this month: {formatDuration(secondsLeft)} of {monthlyMinutes}:00
    </p>
  );
}
