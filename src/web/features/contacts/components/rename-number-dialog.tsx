import { PencilIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { FRIENDLY_NAME_MAX_LENGTH, renameNumberBodySchema, type OwnedNumber } from '../../../../common/api/numbers';
import { formatPhoneNumber } from '../../../../common/phone';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { Button } from '../../../components/ui/button';
import { IconTooltip } from '../../../components/ui/tooltip';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { useRenameNumber } from '../api/rename-number';

/** Beyond the prototype (docs/product.md §2): a number's friendly name can change after it is rented; an empty name removes it. */
export function RenameNumberDialog({ number }: { number: OwnedNumber }) {
  const [open, setOpen] = useState(false);
  const formatted = formatPhoneNumber(number.phoneNumber);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <IconTooltip label={`Rename ${formatted}`}>
          <Button variant="ghost" size="icon" aria-label={`Rename ${formatted}`}>
            <PencilIcon aria-hidden="true" />
          </Button>
        </IconTooltip>
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
  const form = useZodForm(renameNumberBodySchema, { defaultValues: { friendlyName: number.friendlyName ?? '' } });
  const rename = useRenameNumber();
  const id = useId();

  const submit = submitHandler(form, async ({ friendlyName }) => {
    await rename.mutateAsync({ id: number.id, friendlyName: friendlyName?.trim() ?? '' });
    onRenamed();
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormInput form={form} name="friendlyName" id={`${id}-friendly-name`} label="Friendly Name" autoComplete="off" maxLength={FRIENDLY_NAME_MAX_LENGTH} />
      <FormAlert title="Failed to rename number" message={form.formState.errors.root?.server?.message} />
      <DialogFormFooter submitLabel="Save" pending={form.formState.isSubmitting} />
    </form>
  );
}
