import { Loader2Icon, RotateCwIcon } from 'lucide-react';
import { Button } from './ui/button';

interface LoadFailedProps {
  /** What did not load ("Failed to load contacts"). */
  message: string;
  /** The server's reason, when there is one worth showing under the message. */
  reason?: string;
  onRetry: () => void;
  /** A retry under way: the button waits and shows it. */
  retrying?: boolean;
}

/** Data that did not load, in place of the data, with a way to ask again. */
export function LoadFailed({ message, reason, onRetry, retrying = false }: LoadFailedProps) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center">
      <div className="flex flex-col gap-1">
        <p className="font-medium">{message}</p>
        {reason && <p className="text-sm text-muted-foreground">{reason}</p>}
      </div>
      <Button variant="outline" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        {retrying ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : <RotateCwIcon aria-hidden="true" />}
        Try again
      </Button>
    </div>
  );
}
