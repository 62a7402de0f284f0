import { ShieldCheckIcon, ShieldOffIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { confirmTwoFactorBodySchema, passwordConfirmBodySchema, type EnableTwoFactorResult } from '../../../../common/api/account';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { useConfirmTwoFactor } from '../api/confirm-two-factor';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';

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
  failureTitle,
  submitLabel,
  destructive = false,
  send,
}: {
  failureTitle: string;
  submitLabel: string;
  destructive?: boolean;
  send: (password: string) => Promise<unknown>;
}) {
  const form = useZodForm(passwordConfirmBodySchema, { defaultValues: { password: '' } });
  const id = useId();
  const submit = submitHandler(form, ({ password }) => send(password));

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormInput
        form={form}
        name="password"
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        hint="Confirm it is you with your account password."
      />
      <FormAlert title={failureTitle} message={form.formState.errors.root?.server?.message} />
      <DialogFormFooter submitLabel={submitLabel} pending={form.formState.isSubmitting} variant={destructive ? 'destructive' : 'default'} />
    </form>
  );
}

function EnableTwoFactor({ onEnabled }: { onEnabled: () => void }) {
  const [setup, setSetup] = useState<EnableTwoFactorResult | null>(null);
  const enable = useEnableTwoFactor();

  if (setup) return <VerifyTwoFactor setup={setup} onEnabled={onEnabled} />;

  return <PasswordStep failureTitle="Failed to start two-factor setup" submitLabel="Continue" send={async (password) => setSetup(await enable.mutateAsync(password))} />;
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
  const form = useZodForm(confirmTwoFactorBodySchema, { defaultValues: { code: '' } });
  const confirm = useConfirmTwoFactor();
  const id = useId();
  const secret = secretOf(setup.totpUri);

  const submit = submitHandler(form, async ({ code }) => {
    await confirm.mutateAsync(code.trim());
    onEnabled();
  });

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
        <FormInput
          form={form}
          name="code"
          id={`${id}-code`}
          label="Authentication code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          hint="3. Enter the 6-digit code your app shows for Voxline."
        />
        <FormAlert title="Failed to enable two-factor authentication" message={form.formState.errors.root?.server?.message} />
        <DialogFormFooter submitLabel="Verify and enable" pending={form.formState.isSubmitting} />
      </form>
    </div>
  );
}

function DisableTwoFactor({ onDisabled }: { onDisabled: () => void }) {
  const disable = useDisableTwoFactor();

  return (
    <PasswordStep
      failureTitle="Failed to disable two-factor authentication"
      submitLabel="Disable"
      destructive
      send={async (password) => {
        await disable.mutateAsync(password);
        onDisabled();
      }}
    />
  );
}
