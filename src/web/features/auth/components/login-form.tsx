import { Loader2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { signInBodySchema } from '../../../../common/api/auth';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useSignIn, useStoreSignedInUser } from '../api/sign-in';
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
    // SPEC §5: both fields are required.
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
      onError: (error) => toast.error('Login failed', { description: error.message || 'Invalid email or password' }),
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
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
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={`${id}-password`}>Password</Label>
          <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
            Forgot password?
          </Button>
        </div>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <Button type="submit" className="w-full" disabled={signIn.isPending} aria-busy={signIn.isPending}>
        {signIn.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
        Log in
      </Button>
    </form>
  );
}
