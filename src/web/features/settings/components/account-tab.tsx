import { PageLoading } from '../../../components/page-loading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useAccount } from '../api/get-account';
import { AccountForm } from './account-form';
import { ChangePasswordDialog } from './change-password-dialog';
import { LoadFailed } from '../../../components/load-failed';
import { TwoFactorDialog } from './two-factor-dialog';

export function AccountTab() {
  const account = useAccount();

  if (account.isPending) return <PageLoading />;
  if (account.isError) return <LoadFailed message={account.error.message} onRetry={() => void account.refetch()} />;

  const { twoFactorEnabled } = account.data;
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Account</CardTitle>
          <CardDescription>Your name, email address and phone number.</CardDescription>
        </CardHeader>
        <CardContent>
          <AccountForm account={account.data} />
        </CardContent>
      </Card>
      {/* Outside the account form: a dialog's submit would otherwise bubble to it through the portal. */}
      <Card>
        <CardHeader>
          <CardTitle>Security</CardTitle>
          <CardDescription>
            {twoFactorEnabled
              ? 'Two-factor authentication is on: logging in asks for a code from your authenticator app.'
              : 'Two-factor authentication is off. Turn it on to ask for a code from your authenticator app at each login.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row">
          <ChangePasswordDialog />
          <TwoFactorDialog enabled={twoFactorEnabled} />
        </CardContent>
      </Card>
    </div>
  );
}
