import { CircleAlertIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { useEndCall } from '../api/end-call';

interface EndCallDialogProps {
  callId: string;
  /** The call in words: "+1 (415) 555-0100 to +1 (646) 555-0142". */
  description: string;
  trigger: ReactNode;
}

/** Asks before ending someone's call, says so once it has ended, and why not when it could not. */
export function EndCallDialog({ callId, description, trigger }: EndCallDialogProps) {
  const endCall = useEndCall(() => toast.success('Call ended', { description: `The call from ${description} was ended.` }));
  return (
    <ConfirmDialog
      trigger={trigger}
      title="End this call?"
      description={`The call from ${description} ends at once for both sides, and they are told that an administrator ended it.`}
      confirmLabel="End call"
      pending={endCall.isPending}
      onConfirm={(close) => endCall.mutate(callId, { onSuccess: close })}
      onDismiss={endCall.reset}
    >
      {endCall.error && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>Failed to end the call</AlertTitle>
          <AlertDescription>{endCall.error.message}</AlertDescription>
        </Alert>
      )}
    </ConfirmDialog>
  );
}
