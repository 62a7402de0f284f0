import { useMutation } from '@tanstack/react-query';
import { enableTwoFactorResultSchema, passwordConfirmBodySchema } from '../../../../common/api/account';
import { api } from '../../../lib/api-client';

/** Step 1 of turning two-factor on: the secret as a QR code and URI, and the backup codes. */
function enableTwoFactor(password: string) {
  return api.post('/account/two-factor/enable', enableTwoFactorResultSchema, { password }, passwordConfirmBodySchema);
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
