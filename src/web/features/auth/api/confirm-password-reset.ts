import { useMutation } from '@tanstack/react-query';
import { okSchema, passwordResetConfirmBodySchema } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';

function confirmPasswordReset(body: { token: string; newPassword: string }) {
  return api.post('/auth/password-reset/confirm', okSchema, body, passwordResetConfirmBodySchema);
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
