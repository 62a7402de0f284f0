import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import type { CallReceiver } from '../../../calls/use-call-receiver';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { DevicesPanel } from '../../../audio/devices/devices-panel';
import { CallReceiverPanel } from './call-receiver-panel';
import { ReadinessPanel } from './readiness-panel';
import { VoicemailGreeting } from './voicemail-greeting';

/** docs/product.md §2 Call Receiver tab: the user's numbers decide whether calls can be received at all. */
export function CallReceiverTab({ receiver }: { receiver: CallReceiver }) {
  const numbers = useQuery(phoneNumbersQuery);

  useEffect(() => {
    if (numbers.isError) toast.error('Error', { id: 'receiver-numbers-failed', description: 'Failed to load your phone numbers' });
  }, [numbers.isError]);

  if (numbers.isPending) {
    return (
      <div className="flex justify-center p-8">
        <Spinner size="lg" className="text-muted-foreground" label="Loading your phone numbers" />
      </div>
    );
  }

  const hasNumbers = (numbers.data?.length ?? 0) > 0;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="text-xl font-semibold tracking-tight">Receive Calls</h2>
        <p className="text-muted-foreground">Keep this tab open to receive incoming calls on your phone numbers.</p>
      </div>
      {numbers.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Your phone numbers could not be loaded</AlertTitle>
          <AlertDescription>
            <p>{numbers.error.message}</p>
            <Button variant="outline" size="sm" onClick={() => void numbers.refetch()} disabled={numbers.isFetching}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : (
        <>
          <CallReceiverPanel receiver={receiver} hasNumbers={hasNumbers} />
          {!hasNumbers && (
            <Alert variant="warning">
              <AlertTitle>No Phone Numbers</AlertTitle>
              <AlertDescription variant="warning">
                <p>
                  You need a phone number to receive calls. Add one on the{' '}
                  <Link to="/contacts" className="font-medium underline underline-offset-4">
                    Contacts page
                  </Link>
                  .
                </p>
              </AlertDescription>
            </Alert>
          )}
          <ReadinessPanel />
          <DevicesPanel />
          <VoicemailGreeting />
        </>
      )}
    </div>
  );
}
