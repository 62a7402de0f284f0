import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateAccountResultSchema, type UpdateAccountBody } from '../../../../common/api/account';
import type { Session } from '../../../../common/api/session';
import { api } from '../../../lib/api-client';
import { sessionQuery } from '../../../lib/session';
import { accountQuery } from './get-account';

// The body goes as typed: the shared schema turns '' into null and numbers into E.164, which is the
// server's reading of it, not what the server accepts.
function updateAccount(changes: UpdateAccountBody) {
  return api.patch('/account', updateAccountResultSchema, changes);
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: ({ account }) => {
      queryClient.setQueryData(accountQuery.queryKey, account);
      // The name shown elsewhere comes from the session.
      queryClient.setQueryData(sessionQuery.queryKey, (session: Session | null | undefined) =>
        session ? { user: { ...session.user, fullName: account.fullName, email: account.email } } : session,
      );
    },
  });
}
