import { useMutation } from '@tanstack/react-query';
import { okSchema, passwordResetRequestBodySchema } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';

/** The answer is the same whether or not the address has an account. */
function requestPasswordReset(email: string) {
  return api.post('/auth/password-reset', okSchema, { email }, passwordResetRequestBodySchema);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
