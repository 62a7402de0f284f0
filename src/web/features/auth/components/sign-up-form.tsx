import { Loader2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PASSWORD_MIN_LENGTH, signUpBodySchema } from '../../../../common/api/auth';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useSignUp } from '../api/sign-up';

interface SignUpFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedUp: () => void;
}

export function SignUpForm({ email, onEmailChange, onSignedUp }: SignUpFormProps) {
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const signUp = useSignUp();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // SPEC §5: email, password and full name are required.
    if (!fullName.trim() || !email.trim() || !password) {
      toast.error('Missing information', { description: 'Please fill in all required fields' });
      return;
    }
    const body = signUpBodySchema.safeParse({ fullName, email: email.trim(), password });
    if (!body.success) {
      toast.error('Error creating account', { description: body.error.issues[0]?.message ?? 'An unexpected error occurred' });
      return;
    }
    signUp.mutate(body.data, {
      onSuccess: () => {
        toast.success('Account created', { description: 'Please check your email to confirm your account' });
        onSignedUp();
      },
      onError: (error) => toast.error('Error creating account', { description: error.message || 'An unexpected error occurred' }),
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-name`}>Full Name</Label>
        <Input id={`${id}-name`} autoComplete="name" required value={fullName} onChange={(event) => setFullName(event.target.value)} />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => onEmailChange(event.target.value)}
          placeholder="you@example.com"
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-describedby={`${id}-password-hint`}
        />
        <p id={`${id}-password-hint`} className="text-sm text-muted-foreground">
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </div>
      <Button type="submit" className="w-full" disabled={signUp.isPending} aria-busy={signUp.isPending}>
        {signUp.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
        Create account
      </Button>
    </form>
  );
}
