import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { passwordResetRequestBodySchema } from '../../../../common/api/auth';
import { FormAlert } from '../../../components/form-alert';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { withErrorReference } from '../../../lib/error-reference';
import { reportMissing, submitHandler, useZodForm } from '../../../lib/zod-form';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { EmailField } from './email-field';

interface ResetFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onBackToLogin: () => void;
}

export function ResetForm({ email, onEmailChange, onBackToLogin }: ResetFormProps) {
  const [sent, setSent] = useState(false);
  const form = useZodForm(passwordResetRequestBodySchema, { defaultValues: { email } });
  const requestReset = useRequestPasswordReset();
  const id = useId();

  if (sent) {
    return (
      <div className="flex flex-col items-center gap-4 py-2 text-center">
        <p role="status">Reset link has been sent to your email address.</p>
        <Button variant="outline" onClick={onBackToLogin}>
          Back to Login
        </Button>
      </div>
    );
  }

  const submit = submitHandler(
    form,
    async ({ email: address }) => {
      try {
        await requestReset.mutateAsync(address);
      } catch (error) {
        // A bad address or too many attempts is worth saying; anything else gets docs/product.md §8's text.
        if (error instanceof ApiError && (error.status === 400 || error.status === 429)) throw error;
        form.setError('root.server', { type: 'server', message: withErrorReference('Failed to send password reset email', error) });
        return;
      }
      toast.success('Password reset email sent', { description: 'Follow the link in the email to choose a new password.' });
      setSent(true);
    },
    // docs/product.md §5: the email is required.
    reportMissing(form, ['email'], 'Please enter your email address'),
  );
  const { errors, isSubmitting } = form.formState;

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">Enter the email address of your account and we will send you a link to set a new password.</p>
      <EmailField id={`${id}-email`} form={form} onEmailChange={onEmailChange} />
      <FormAlert title="Email required" message={errors.root?.missing?.message} />
      <FormAlert title="Error" message={errors.root?.server?.message} />
      <PendingButton type="submit" className="w-full" pending={isSubmitting}>
        Send reset link
      </PendingButton>
    </form>
  );
}
