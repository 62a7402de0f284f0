import { useMutation } from '@tanstack/react-query';
import { signInResultSchema, twoFactorVerifyBodySchema } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';

/** The second step of a sign-in: a code from the authenticator app, or a backup code. */
function verifyTwoFactor(code: string) {
  return api.post('/auth/two-factor', signInResultSchema, { code }, twoFactorVerifyBodySchema);
}

export function useVerifyTwoFactor() {
  return useMutation({ mutationFn: verifyTwoFactor });
}
