import { Loader2Icon, PhoneOffIcon } from 'lucide-react';
import { useState, type MouseEvent } from 'react';
import { toast } from 'sonner';
import type { OwnedNumber } from '../../../../common/api/numbers';
import { formatPhoneNumber } from '../../../../common/phone';
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
} from '../../../components/ui/alert-dialog';
import { Button, buttonVariants } from '../../../components/ui/button';
import { useReleaseNumber } from '../api/release-number';
import { FailureAlert } from './failure-alert';

/** Beyond SPEC: gives a rented number back, after a confirmation. */
export function ReleaseNumberDialog({ number }: { number: OwnedNumber }) {
  const [open, setOpen] = useState(false);
  const release = useReleaseNumber();
  const formatted = formatPhoneNumber(number.phoneNumber);

  function confirm(event: MouseEvent<HTMLButtonElement>) {
    // The dialog stays open until the carrier has taken the number back, to show a failure there.
    event.preventDefault();
    release.mutate(number.id, {
      onSuccess: () => {
        setOpen(false);
        toast.success('Number released', { description: formatted });
      },
    });
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) release.reset();
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Release ${formatted}`} title="Release" className="text-destructive hover:text-destructive">
          <PhoneOffIcon aria-hidden="true" />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Release {formatted}?</AlertDialogTitle>
          <AlertDialogDescription>
            The number goes back to the carrier: you can no longer call from it or receive calls on it, and someone else may rent it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <FailureAlert title="Failed to release number" error={release.error} />
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirm} disabled={release.isPending} aria-busy={release.isPending}>
            {release.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            Release
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
