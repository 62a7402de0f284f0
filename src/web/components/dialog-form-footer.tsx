import type { ComponentProps } from 'react';
import { PendingButton } from './pending-button';
import { Button } from './ui/button';
import { DialogClose, DialogFooter } from './ui/dialog';

/** The Cancel and submit buttons that end a form in a dialog. */
export function DialogFormFooter({
  submitLabel,
  pending,
  variant,
}: {
  submitLabel: string;
  pending: boolean;
  variant?: ComponentProps<typeof Button>['variant'];
}) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="outline">Cancel</Button>
      </DialogClose>
      <PendingButton type="submit" variant={variant} pending={pending}>
        {submitLabel}
      </PendingButton>
    </DialogFooter>
  );
}
