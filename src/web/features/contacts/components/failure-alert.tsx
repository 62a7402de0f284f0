import { CircleAlertIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';

/** The server's reason, without the 'phoneNumber: ' a validation message starts with. */
function reasonOf(error: Error): string {
  if (error instanceof ApiError && error.field && error.message.startsWith(`${error.field}: `)) {
    return error.message.slice(error.field.length + 2);
  }
  return error.message;
}

/**
 * A failure shown where it happened, in a dialog: what failed, then the server's reason. Toasts are
 * not used there: a modal dialog hides the rest of the page, the toasts included, from screen readers.
 */
export function FailureAlert({ title, error }: { title: string; error: Error | null }) {
  if (!error) return null;
  const reason = reasonOf(error);
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      {reason && <AlertDescription>{reason}</AlertDescription>}
    </Alert>
  );
}
