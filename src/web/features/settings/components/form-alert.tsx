/**
 * A failure shown inside a dialog. Toasts are not used there: a modal dialog hides the rest of the
 * page, the toasts included, from screen readers.
 */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm text-destructive">
      {message}
    </p>
  );
}
