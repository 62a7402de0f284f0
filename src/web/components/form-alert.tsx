import { CircleAlertIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from './ui/alert';

/**
 * An error about the whole form (not one field), shown above its submit button and announced:
 * what failed, then why. Kept in the form rather than in a toast: in a dialog, the toasts are
 * hidden from screen readers with the rest of the page.
 */
export function FormAlert({ title, message }: { title: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
