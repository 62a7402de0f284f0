import { Loader2Icon, RotateCwIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';

/** A list that did not load, in place of the list, with the server's reason and a way to ask again. */
export function LoadFailed({ message, reason, onRetry, retrying }: { message: string; reason: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center">
      <div className="flex flex-col gap-1">
        <p className="font-medium">{message}</p>
        <p className="text-sm text-muted-foreground">{reason}</p>
      </div>
      <Button variant="outline" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        {retrying ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : <RotateCwIcon aria-hidden="true" />}
        Try again
      </Button>
    </div>
  );
}
