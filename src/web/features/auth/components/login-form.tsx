import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { signInBodySchema } from '../../../../common/api/auth';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { reportMissing, submitHandler, useZodForm } from '../../../lib/zod-form';
import { useSignIn, useStoreSignedInUser } from '../api/sign-in';
import { EmailField } from './email-field';
import { TwoFactorStep } from './two-factor-step';

interface LoginFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onForgotPassword: () => void;
}

export function LoginForm({ email, onEmailChange, onForgotPassword }: LoginFormProps) {
  const [step, setStep] = useState<'password' | 'two-factor'>('password');
  const form = useZodForm(signInBodySchema, { defaultValues: { email, password: '' } });
  const signIn = useSignIn();
  const storeSignedInUser = useStoreSignedInUser();
  const id = useId();

  if (step === 'two-factor') {
    return (
      <TwoFactorStep
        onBack={() => {
          form.reset({ email, password: '' });
          setStep('password');
        }}
      />
    );
  }

  const submit = submitHandler(
    form,
    async (body) => {
      const result = await signIn.mutateAsync(body);
      if (result.status === 'two-factor-required') {
        setStep('two-factor');
        return;
      }
      toast.success('Login successful', { description: `Welcome back, ${result.user.fullName}!` });
      storeSignedInUser(result.user);
    },
    // docs/product.md §5: both fields are required.
    reportMissing(form, ['email', 'password'], 'Please enter both email and password'),
  );
  const { errors, isSubmitting } = form.formState;

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <EmailField id={`${id}-email`} form={form} onEmailChange={onEmailChange} />
      <FormInput
        form={form}
        name="password"
        id={`${id}-password`}
        label="Password"
        labelAction={
          <Button type="button" variant="link" size="inline" onClick={onForgotPassword}>
            Forgot password?
          </Button>
        }
        type="password"
        autoComplete="current-password"
        required
      />
      <FormAlert title="Missing information" message={errors.root?.missing?.message} />
      <FormAlert title="Login failed" message={errors.root?.server?.message} />
      <PendingButton type="submit" className="w-full" pending={isSubmitting}>
        Log in
      </PendingButton>
    </form>
  );
}
