import { Suspense, useRef, useState, type ReactNode } from 'react';
import { lazyComponent } from '../lib/lazy-component';
import type { ConfirmDialogText } from './confirm-dialog-content';
import { Slot } from './ui/slot';

// Radix's alert dialog with its focus trap and scroll lock (about 14 kB) is fetched once the page has
// shown, not in its first load (decision 041). The trigger is ours, so it is the same element before
// and after: a press is never lost to a button swapped for another.
const { Component: ConfirmDialogContent, useLoadAfterShow: useLoadContent } = lazyComponent(async () => (await import('./confirm-dialog-content')).ConfirmDialogContent);

interface ConfirmDialogProps extends ConfirmDialogText {
  trigger: ReactNode;
  /** Called when the user closes the dialog, e.g. to clear a failure shown in it. */
  onDismiss: () => void;
}

/** Asks before something that cannot be undone, such as a deletion. */
export function ConfirmDialog({ trigger, onDismiss, ...dialog }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const opener = useRef<HTMLElement>(null);
  useLoadContent();

  function changeOpen(next: boolean) {
    setOpen(next);
    if (!next) onDismiss();
  }

  return (
    <>
      <Slot
        ref={opener}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        {trigger}
      </Slot>
      {opened && (
        <Suspense fallback={null}>
          <ConfirmDialogContent {...dialog} open={open} onOpenChange={changeOpen} opener={opener} />
        </Suspense>
      )}
    </>
  );
}
