import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountSchema, confirmTwoFactorBodySchema } from '../../../../common/api/account';
import { api } from '../../../lib/api-client';
import { accountQuery } from './get-account';

/** Step 2: a code from the authenticator app proves it holds the secret; two-factor is then on. */
function confirmTwoFactor(code: string) {
  return api.post('/account/two-factor/confirm', accountSchema, { code }, confirmTwoFactorBodySchema);
}

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTwoFactor,
    onSuccess: (account) => queryClient.setQueryData(accountQuery.queryKey, account),
  });
}
