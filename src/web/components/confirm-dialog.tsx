import { Loader2Icon } from 'lucide-react';
import { useState, type MouseEvent, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './ui/alert-dialog';
import { buttonVariants } from './ui/button';

interface ConfirmDialogProps {
  trigger: ReactNode;
  title: string;
  description: string;
  confirmLabel: string;
  pending: boolean;
  /** The dialog stays open until `close` is called, so that a failure can be shown in it (`children`). */
  onConfirm: (close: () => void) => void;
  /** Called when the user closes the dialog, e.g. to clear a failure shown in it. */
  onDismiss: () => void;
  children?: ReactNode;
}

/** Asks before something that cannot be undone, such as a deletion. */
export function ConfirmDialog({ trigger, title, description, confirmLabel, pending, onConfirm, onDismiss, children }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);

  function confirm(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    onConfirm(() => setOpen(false));
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) onDismiss();
      }}
    >
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirm} disabled={pending} aria-busy={pending}>
            {pending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
