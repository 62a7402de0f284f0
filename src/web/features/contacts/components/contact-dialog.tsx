import { useId, useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import { CONTACT_EMAIL_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH, CONTACT_PHONE_MAX_LENGTH, createContactBodySchema, type Contact } from '../../../../common/api/contacts';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { reportMissing, submitHandler, useZodForm } from '../../../lib/zod-form';
import { useCreateContact } from '../api/create-contact';
import { useUpdateContact } from '../api/update-contact';
import { ContactVoiceFields } from './contact-voice-fields';

/** The Add Contact dialog (no `contact`) or the Edit Contact dialog of `contact` (docs/product.md §2, §4, §5). */
export function ContactDialog({ contact, trigger }: { contact?: Contact; trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{contact ? 'Edit Contact' : 'Add Contact'}</DialogTitle>
          <DialogDescription>
            {contact ? `Change ${contact.name}'s details.` : 'Save someone you call, to find them and call them in one tap.'}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted while open only: closing the dialog clears the form (docs/product.md §4). */}
        <ContactForm
          contact={contact}
          onSaved={() => {
            setOpen(false);
            toast.success(contact ? 'Contact updated' : 'Contact added');
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function ContactForm({ contact, onSaved }: { contact: Contact | undefined; onSaved: () => void }) {
  // Adding and editing ask for the same fields (docs/product.md §5): the add body's rules serve both.
  const form = useZodForm(createContactBodySchema, {
    defaultValues: { name: contact?.name ?? '', phoneNumber: contact?.phoneNumber ?? '', email: contact?.email ?? '', voice: contact?.voice ?? null },
  });
  const createContact = useCreateContact();
  const updateContact = useUpdateContact();
  const id = useId();

  const submit = submitHandler(
    form,
    async ({ name, phoneNumber, email, voice }) => {
      const values = { name: name.trim(), phoneNumber: phoneNumber.trim(), email: email?.trim() ?? '', voice: voice ?? null };
      if (contact) await updateContact.mutateAsync({ id: contact.id, changes: values });
      else await createContact.mutateAsync(values);
      onSaved();
    },
    reportMissing(form, ['name', 'phoneNumber'], 'Name and phone number are required'),
  );
  const { errors, isSubmitting } = form.formState;

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormInput form={form} name="name" id={`${id}-name`} label="Name" autoComplete="off" required maxLength={CONTACT_NAME_MAX_LENGTH} />
      <FormInput
        form={form}
        name="phoneNumber"
        id={`${id}-phone`}
        label="Phone Number"
        type="tel"
        autoComplete="off"
        required
        maxLength={CONTACT_PHONE_MAX_LENGTH}
        placeholder="+1 415 555 0100"
        hint="With its country code when it is abroad."
      />
      <FormInput form={form} name="email" id={`${id}-email`} label="Email (optional)" type="email" autoComplete="off" maxLength={CONTACT_EMAIL_MAX_LENGTH} />
      <ContactVoiceFields form={form} />
      <FormAlert title="Missing information" message={errors.root?.missing?.message} />
      <FormAlert title={contact ? 'Failed to update contact' : 'Failed to add contact'} message={errors.root?.server?.message} />
      <DialogFormFooter submitLabel={contact ? 'Save Changes' : 'Add Contact'} pending={isSubmitting} />
    </form>
  );
}
