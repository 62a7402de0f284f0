import { Loader2Icon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from './ui/button';

/** A button that shows a spinner, and cannot be pressed again, while what it started is under way. */
export function PendingButton({ pending, disabled, children, ...props }: ComponentProps<typeof Button> & { pending: boolean }) {
  return (
    <Button disabled={pending || disabled} aria-busy={pending} {...props}>
      {pending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
      {children}
    </Button>
  );
}
