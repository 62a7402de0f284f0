import { Loader2Icon, Trash2Icon } from 'lucide-react';
import { useState, type MouseEvent } from 'react';
import { toast } from 'sonner';
import type { Contact } from '../../../../common/api/contacts';
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
import { useDeleteContact } from '../api/delete-contact';
import { FailureAlert } from './failure-alert';

/** SPEC §5: deleting asks 'Are you sure you want to delete {name}?' first. */
export function DeleteContactDialog({ contact }: { contact: Contact }) {
  const [open, setOpen] = useState(false);
  const deleteContact = useDeleteContact();

  function confirm(event: MouseEvent<HTMLButtonElement>) {
    // Stays open until the contact is gone, to show a failure here.
    event.preventDefault();
    deleteContact.mutate(contact.id, {
      onSuccess: () => {
        setOpen(false);
        toast.success('Contact deleted');
      },
    });
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) deleteContact.reset();
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Delete ${contact.name}`} title="Delete" className="size-8 text-destructive hover:text-destructive sm:size-9">
          <Trash2Icon aria-hidden="true" />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure you want to delete {contact.name}?</AlertDialogTitle>
          <AlertDialogDescription>The contact is removed for good; your calls are not affected.</AlertDialogDescription>
        </AlertDialogHeader>
        <FailureAlert title="Failed to delete contact" error={deleteContact.error} />
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={confirm}
            disabled={deleteContact.isPending}
            aria-busy={deleteContact.isPending}
          >
            {deleteContact.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
