import { Trash2Icon } from 'lucide-react';
import { toast } from '../../../lib/toast';
import type { Voicemail } from '../../../../common/api/voicemail';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormAlert } from '../../../components/form-alert';
import { Button } from '../../../components/ui/button';
import { useDeleteVoicemail } from '../api/voicemail-mutations';

/** Deleting a message removes its audio for good, so it asks first. */
export function DeleteVoicemailDialog({ message, caller }: { message: Voicemail; caller: string }) {
  const deleteVoicemail = useDeleteVoicemail();

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline-destructive" size="sm">
          <Trash2Icon aria-hidden="true" />
          Delete
        </Button>
      }
      title="Delete this voicemail?"
      description={`The message from ${caller} is removed for good.`}
      confirmLabel="Delete"
      pending={deleteVoicemail.isPending}
      onConfirm={(close) =>
        deleteVoicemail.mutate(message.id, {
          onSuccess: () => {
            close();
            toast.success('Voicemail deleted');
          },
        })
      }
      onDismiss={deleteVoicemail.reset}
    >
      <FormAlert title="Failed to delete voicemail" message={deleteVoicemail.error?.message} />
    </ConfirmDialog>
  );
}
