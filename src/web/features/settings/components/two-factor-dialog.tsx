import { ShieldCheckIcon, ShieldOffIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { EnableTwoFactorResult } from '../../../../common/api/account';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { useConfirmTwoFactor } from '../api/confirm-two-factor';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { FormAlert } from './form-alert';

type Mode = 'enable' | 'disable';

/** Turns two-factor authentication on (password, then the authenticator app's first code) or off (password). */
export function TwoFactorDialog({ enabled }: { enabled: boolean }) {
  // Fixed while the dialog is open: enabling flips `enabled` before the dialog has closed.
  const [mode, setMode] = useState<Mode | null>(null);
  const finish = (message: string) => {
    setMode(null);
    toast.success(message);
  };

  return (
    <Dialog open={mode !== null} onOpenChange={(open) => setMode(open ? (enabled ? 'disable' : 'enable') : null)}>
      <DialogTrigger asChild>
        <Button variant="outline">
          {enabled ? <ShieldOffIcon /> : <ShieldCheckIcon />}
          {enabled ? 'Disable Two-Factor Authentication' : 'Enable Two-Factor Authentication'}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{mode === 'disable' ? 'Disable two-factor authentication' : 'Enable two-factor authentication'}</DialogTitle>
          <DialogDescription>
            {mode === 'disable'
              ? 'Logging in will then ask for your password only.'
              : 'Logging in will also ask for a code from an authenticator app on your phone.'}
          </DialogDescription>
        </DialogHeader>
        {mode === 'disable' ? (
          <DisableTwoFactor onDisabled={() => finish('Two-factor authentication disabled')} />
        ) : (
          <EnableTwoFactor onEnabled={() => finish('Two-factor authentication enabled')} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function PasswordStep({
  pending,
  failure,
  submitLabel,
  destructive = false,
  onSubmit,
}: {
  pending: boolean;
  failure: string | null;
  submitLabel: string;
  destructive?: boolean;
  onSubmit: (password: string) => void;
}) {
  const [password, setPassword] = useState('');
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(password);
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        hint="Confirm it is you with your account password."
      />
      <FormAlert message={failure} />
      <DialogFormFooter submitLabel={submitLabel} pending={pending} variant={destructive ? 'destructive' : 'default'} />
    </form>
  );
}

function EnableTwoFactor({ onEnabled }: { onEnabled: () => void }) {
  const [setup, setSetup] = useState<EnableTwoFactorResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const enable = useEnableTwoFactor();

  if (setup) return <VerifyTwoFactor setup={setup} onEnabled={onEnabled} />;

  return (
    <PasswordStep
      pending={enable.isPending}
      failure={failure}
      submitLabel="Continue"
      onSubmit={(password) => {
        if (!password) {
          setFailure('Please enter your password.');
          return;
        }
        setFailure(null);
        enable.mutate(password, { onSuccess: setSetup, onError: (error) => setFailure(error.message || 'Failed to start two-factor setup.') });
      }}
    />
  );
}

/** The base32 secret of an otpauth:// URI, for apps that cannot scan; null if the URI has none. */
function secretOf(totpUri: string): string | null {
  try {
    return new URL(totpUri).searchParams.get('secret');
  } catch {
    return null;
  }
}

function VerifyTwoFactor({ setup, onEnabled }: { setup: EnableTwoFactorResult; onEnabled: () => void }) {
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = useConfirmTwoFactor();
  const id = useId();
  const secret = secretOf(setup.totpUri);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) {
      setFailure('Please enter the 6-digit code from your authenticator app.');
      return;
    }
    setFailure(null);
    confirm.mutate(code.trim(), { onSuccess: onEnabled, onError: (error) => setFailure(error.message || 'That code is not valid.') });
  }

  return (
    <div className="flex flex-col gap-5">
      <section aria-labelledby={`${id}-scan`} className="flex flex-col items-center gap-3 text-center">
        <h3 id={`${id}-scan`} className="font-medium">
          1. Scan this QR code with your authenticator app
        </h3>
        <img src={setup.qrCode} alt="QR code for your authenticator app" className="size-48 rounded-md border bg-white p-2" />
        <p className="text-sm text-muted-foreground">Cannot scan it? Enter this setup key in the app instead:</p>
        <code className="break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">
          {secret ?? setup.totpUri}
        </code>
      </section>
      <section aria-labelledby={`${id}-backup`} className="flex flex-col gap-2">
        <h3 id={`${id}-backup`} className="font-medium">
          2. Save your backup codes
        </h3>
        <p className="text-sm text-muted-foreground">
          Keep them somewhere safe: each one logs you in once if you lose your phone. They are not shown again.
        </p>
        <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm">
          {setup.backupCodes.map((backupCode) => (
            <li key={backupCode}>{backupCode}</li>
          ))}
        </ul>
      </section>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <FormField
          id={`${id}-code`}
          label="Authentication code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
          hint="3. Enter the 6-digit code your app shows for Voxline."
        />
        <FormAlert message={failure} />
        <DialogFormFooter submitLabel="Verify and enable" pending={confirm.isPending} />
      </form>
    </div>
  );
}

function DisableTwoFactor({ onDisabled }: { onDisabled: () => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const disable = useDisableTwoFactor();

  return (
    <PasswordStep
      pending={disable.isPending}
      failure={failure}
      submitLabel="Disable"
      destructive
      onSubmit={(password) => {
        if (!password) {
          setFailure('Please enter your password.');
          return;
        }
        setFailure(null);
        disable.mutate(password, { onSuccess: onDisabled, onError: (error) => setFailure(error.message || 'Failed to disable two-factor authentication.') });
      }}
    />
  );
}
