import { useMutation } from '@tanstack/react-query';
import { signUpBodySchema, signUpResultSchema, type SignUpBody } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';

function signUp(body: SignUpBody) {
  return api.post('/auth/sign-up', signUpResultSchema, body, signUpBodySchema);
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
