import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { signUpBodySchema } from '../../../../common/api/auth';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { NewPasswordField } from '../../../components/new-password-fields';
import { usePasswordStrength } from '../../../components/password-strength';
import { PendingButton } from '../../../components/pending-button';
import { reportMissing, submitHandler, useZodForm } from '../../../lib/zod-form';
import { useSignUp } from '../api/sign-up';
import { EmailField } from './email-field';

interface SignUpFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedUp: () => void;
}

export function SignUpForm({ email, onEmailChange, onSignedUp }: SignUpFormProps) {
  const form = useZodForm(signUpBodySchema, { defaultValues: { fullName: '', email, password: '' } });
  const [fullName, password] = useWatch({ control: form.control, name: ['fullName', 'password'] });
  const strength = usePasswordStrength(password, fullName, email);
  const signUp = useSignUp();
  const id = useId();

  const submit = submitHandler(
    form,
    async (body) => {
      const verdict = await strength.check();
      if (verdict && !verdict.acceptable) {
        form.setError('password', { type: 'strength', message: verdict.message }, { shouldFocus: true });
        return;
      }
      await signUp.mutateAsync(body);
      toast.success('Account created', { description: 'Please check your email to confirm your account' });
      onSignedUp();
    },
    // docs/product.md §5: email, password and full name are required.
    reportMissing(form, ['fullName', 'email', 'password'], 'Please fill in all required fields'),
  );
  const { errors, isSubmitting } = form.formState;

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormInput form={form} name="fullName" id={`${id}-name`} label="Full Name" autoComplete="name" required />
      <EmailField id={`${id}-email`} form={form} onEmailChange={onEmailChange} />
      <NewPasswordField id={`${id}-password`} label="Password" form={form} name="password" strength={strength} />
      <FormAlert title="Missing information" message={errors.root?.missing?.message} />
      <FormAlert title="Error creating account" message={errors.root?.server?.message} />
      <PendingButton type="submit" className="w-full" pending={isSubmitting}>
        Create account
      </PendingButton>
    </form>
  );
}
