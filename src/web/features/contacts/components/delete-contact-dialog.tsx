import { Trash2Icon } from 'lucide-react';
import { toast } from '../../../lib/toast';
import type { Contact } from '../../../../common/api/contacts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { IconTooltip } from '../../../components/ui/tooltip';
import { useDeleteContact } from '../api/delete-contact';
import { FailureAlert } from './failure-alert';

/** docs/product.md §5: deleting asks 'Are you sure you want to delete {name}?' first. */
export function DeleteContactDialog({ contact }: { contact: Contact }) {
  const deleteContact = useDeleteContact();

  return (
    <ConfirmDialog
      trigger={
        <IconTooltip label={`Delete ${contact.name}`}>
          <Button variant="ghost-destructive" size="icon-responsive" aria-label={`Delete ${contact.name}`}>
            <Trash2Icon aria-hidden="true" />
          </Button>
        </IconTooltip>
      }
      title={`Are you sure you want to delete ${contact.name}?`}
      description="The contact is removed for good; your calls are not affected."
      confirmLabel="Delete"
      pending={deleteContact.isPending}
      onConfirm={(close) =>
        deleteContact.mutate(contact.id, {
          onSuccess: () => {
            close();
            toast.success('Contact deleted');
          },
        })
      }
      onDismiss={deleteContact.reset}
    >
      <FailureAlert title="Failed to delete contact" error={deleteContact.error} />
    </ConfirmDialog>
  );
}
