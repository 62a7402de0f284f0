import { Loader2Icon } from 'lucide-react';
import type { MouseEvent, ReactNode, RefObject } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog';

export interface ConfirmDialogText {
  title: string;
  description: string;
  confirmLabel: string;
  pending: boolean;
  /** The dialog stays open until `close` is called, so that a failure can be shown in it (`children`). */
  onConfirm: (close: () => void) => void;
  children?: ReactNode;
}

interface ConfirmDialogContentProps extends ConfirmDialogText {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The control that opened it, given focus back when it closes (it is not Radix's trigger: confirm-dialog.tsx). */
  opener: RefObject<HTMLElement | null>;
}

/** The confirmation's dialog, loaded after the page shows (confirm-dialog.tsx). */
export function ConfirmDialogContent({ title, description, confirmLabel, pending, onConfirm, children, open, onOpenChange, opener }: ConfirmDialogContentProps) {
  function confirm(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    onConfirm(() => onOpenChange(false));
  }

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={confirm} disabled={pending} aria-busy={pending}>
            {pending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
