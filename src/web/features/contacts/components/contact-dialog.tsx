import { CircleAlertIcon } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { CONTACT_EMAIL_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH, CONTACT_PHONE_MAX_LENGTH, type Contact } from '../../../../common/api/contacts';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormField } from '../../../components/form-field';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { useCreateContact } from '../api/create-contact';
import { useUpdateContact } from '../api/update-contact';
import { FailureAlert } from './failure-alert';

type ContactField = 'name' | 'phoneNumber' | 'email';

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
  const [name, setName] = useState(contact?.name ?? '');
  const [phoneNumber, setPhoneNumber] = useState(contact?.phoneNumber ?? '');
  const [email, setEmail] = useState(contact?.email ?? '');
  const [missing, setMissing] = useState(false);
  const createContact = useCreateContact();
  const updateContact = useUpdateContact();
  const saving = contact ? updateContact : createContact;
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = { name: name.trim(), phoneNumber: phoneNumber.trim(), email: email.trim() };
    if (!values.name || !values.phoneNumber) {
      saving.reset();
      setMissing(true);
      return;
    }
    setMissing(false);
    if (contact) updateContact.mutate({ id: contact.id, changes: values }, { onSuccess: onSaved });
    else createContact.mutate(values, { onSuccess: onSaved });
  }

  const failedField = saving.error instanceof ApiError ? saving.error.field : undefined;
  const invalid = (field: ContactField, value: string) => (missing && field !== 'email' && !value.trim()) || failedField === field || undefined;

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField
        id={`${id}-name`}
        label="Name"
        autoComplete="off"
        required
        maxLength={CONTACT_NAME_MAX_LENGTH}
        value={name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={invalid('name', name)}
      />
      <FormField
        id={`${id}-phone`}
        label="Phone Number"
        type="tel"
        autoComplete="off"
        required
        maxLength={CONTACT_PHONE_MAX_LENGTH}
        placeholder="+1 415 555 0100"
        value={phoneNumber}
        onChange={(event) => setPhoneNumber(event.target.value)}
        aria-invalid={invalid('phoneNumber', phoneNumber)}
        hint="With its country code when it is abroad."
      />
      <FormField
        id={`${id}-email`}
        label="Email (optional)"
        type="email"
        autoComplete="off"
        maxLength={CONTACT_EMAIL_MAX_LENGTH}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        aria-invalid={invalid('email', email)}
      />
      {missing && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>Missing information</AlertTitle>
          <AlertDescription>Name and phone number are required</AlertDescription>
        </Alert>
      )}
      <FailureAlert title={contact ? 'Failed to update contact' : 'Failed to add contact'} error={saving.error} />
      <DialogFormFooter submitLabel={contact ? 'Save Changes' : 'Add Contact'} pending={saving.isPending} />
    </form>
  );
}
