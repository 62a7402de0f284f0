import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { signUpBodySchema } from '../../../../common/api/auth';
import { FormField } from '../../../components/form-field';
import { NewPasswordField } from '../../../components/new-password-fields';
import { usePasswordStrength } from '../../../components/password-strength';
import { PendingButton } from '../../../components/pending-button';
import { withErrorReference } from '../../../lib/error-reference';
import { useSignUp } from '../api/sign-up';
import { EmailField } from './email-field';

interface SignUpFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedUp: () => void;
}

export function SignUpForm({ email, onEmailChange, onSignedUp }: SignUpFormProps) {
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const strength = usePasswordStrength(password, fullName, email);
  const signUp = useSignUp();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // docs/product.md §5: email, password and full name are required.
    if (!fullName.trim() || !email.trim() || !password) {
      toast.error('Missing information', { description: 'Please fill in all required fields' });
      return;
    }
    const body = signUpBodySchema.safeParse({ fullName, email: email.trim(), password });
    if (!body.success) {
      toast.error('Error creating account', { description: body.error.issues[0]?.message ?? 'An unexpected error occurred' });
      return;
    }
    const verdict = strength.check();
    if (verdict && !verdict.acceptable) {
      toast.error('Error creating account', { description: verdict.message });
      return;
    }
    signUp.mutate(body.data, {
      onSuccess: () => {
        toast.success('Account created', { description: 'Please check your email to confirm your account' });
        onSignedUp();
      },
      onError: (error) => toast.error('Error creating account', { description: withErrorReference(error.message || 'An unexpected error occurred', error) }),
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField id={`${id}-name`} label="Full Name" autoComplete="name" required value={fullName} onChange={(event) => setFullName(event.target.value)} />
      <EmailField id={`${id}-email`} email={email} onEmailChange={onEmailChange} />
      <NewPasswordField id={`${id}-password`} label="Password" value={password} onChange={setPassword} strength={strength} />
      <PendingButton type="submit" className="w-full" pending={signUp.isPending}>
        Create account
      </PendingButton>
    </form>
  );
}
