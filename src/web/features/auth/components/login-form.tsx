import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { signInBodySchema } from '../../../../common/api/auth';
import { FormField } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { withErrorReference } from '../../../lib/error-reference';
import { useSignIn, useStoreSignedInUser } from '../api/sign-in';
import { EmailField } from './email-field';
import { TwoFactorStep } from './two-factor-step';

interface LoginFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onForgotPassword: () => void;
}

export function LoginForm({ email, onEmailChange, onForgotPassword }: LoginFormProps) {
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'password' | 'two-factor'>('password');
  const signIn = useSignIn();
  const storeSignedInUser = useStoreSignedInUser();
  const id = useId();

  if (step === 'two-factor') {
    return (
      <TwoFactorStep
        onBack={() => {
          setPassword('');
          setStep('password');
        }}
      />
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // docs/product.md §5: both fields are required.
    if (!email.trim() || !password) {
      toast.error('Missing information', { description: 'Please enter both email and password' });
      return;
    }
    const body = signInBodySchema.safeParse({ email: email.trim(), password });
    if (!body.success) {
      toast.error('Login failed', { description: body.error.issues[0]?.message ?? 'Invalid email or password' });
      return;
    }
    signIn.mutate(body.data, {
      onSuccess: (result) => {
        if (result.status === 'two-factor-required') {
          setStep('two-factor');
          return;
        }
        toast.success('Login successful', { description: `Welcome back, ${result.user.fullName}!` });
        storeSignedInUser(result.user);
      },
      onError: (error) => toast.error('Login failed', { description: withErrorReference(error.message || 'Invalid email or password', error) }),
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <EmailField id={`${id}-email`} email={email} onEmailChange={onEmailChange} />
      <FormField
        id={`${id}-password`}
        label="Password"
        labelAction={
          <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
            Forgot password?
          </Button>
        }
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <PendingButton type="submit" className="w-full" pending={signIn.isPending}>
        Log in
      </PendingButton>
    </form>
  );
}
