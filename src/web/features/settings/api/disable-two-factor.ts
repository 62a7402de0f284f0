import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountSchema, passwordConfirmBodySchema } from '../../../../common/api/account';
import { api } from '../../../lib/api-client';
import { accountQuery } from './get-account';

function disableTwoFactor(password: string) {
  return api.post('/account/two-factor/disable', accountSchema, { password }, passwordConfirmBodySchema);
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: (account) => queryClient.setQueryData(accountQuery.queryKey, account),
  });
}
