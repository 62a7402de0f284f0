import { useMutation } from '@tanstack/react-query';
import { changePasswordBodySchema } from '../../../../common/api/account';
import { okSchema } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';

/** The server signs out every other session of the user. */
function changePassword(body: { currentPassword: string; newPassword: string }) {
  return api.post('/account/password', okSchema, body, changePasswordBodySchema);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
