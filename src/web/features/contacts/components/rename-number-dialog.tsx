import { PencilIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FRIENDLY_NAME_MAX_LENGTH, type OwnedNumber } from '../../../../common/api/numbers';
import { formatPhoneNumber } from '../../../../common/phone';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { useRenameNumber } from '../api/rename-number';
import { FailureAlert } from './failure-alert';

/** Beyond the prototype (docs/product.md §2): a number's friendly name can change after it is rented; an empty name removes it. */
export function RenameNumberDialog({ number }: { number: OwnedNumber }) {
  const [open, setOpen] = useState(false);
  const formatted = formatPhoneNumber(number.phoneNumber);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Rename ${formatted}`} title="Rename">
          <PencilIcon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename number</DialogTitle>
          <DialogDescription>The name shown for {formatted}. Leave it empty to remove the name.</DialogDescription>
        </DialogHeader>
        <RenameNumberForm
          number={number}
          onRenamed={() => {
            setOpen(false);
            toast.success('Number renamed', { description: formatted });
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function RenameNumberForm({ number, onRenamed }: { number: OwnedNumber; onRenamed: () => void }) {
  const [friendlyName, setFriendlyName] = useState(number.friendlyName ?? '');
  const rename = useRenameNumber();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    rename.mutate({ id: number.id, friendlyName: friendlyName.trim() }, { onSuccess: onRenamed });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField
        id={`${id}-friendly-name`}
        label="Friendly Name"
        autoComplete="off"
        maxLength={FRIENDLY_NAME_MAX_LENGTH}
        value={friendlyName}
        onChange={(event) => setFriendlyName(event.target.value)}
      />
      <FailureAlert title="Failed to rename number" error={rename.error} />
      <DialogFormFooter submitLabel="Save" pending={rename.isPending} />
    </form>
  );
}
