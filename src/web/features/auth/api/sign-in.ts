import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { signInBodySchema, signInResultSchema, type SignInBody } from '../../../../common/api/auth';
import type { Session, SessionUser } from '../../../../common/api/session';
import { api } from '../../../lib/api-client';
import { sessionQuery } from '../../../lib/session';

function signIn(body: SignInBody) {
  return api.post('/auth/sign-in', signInResultSchema, body, signInBodySchema);
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}

/**
 * Puts the signed-in user in the session query, dropping whatever the cache held about an earlier
 * visitor. The stored session is marked stale: the next page to read it asks the server, which
 * also says whether the user is an administrator.
 */
export function useStoreSignedInUser() {
  const queryClient = useQueryClient();
  return useCallback(
    (user: SessionUser) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
      const session: Session = { user };
      queryClient.setQueryData(sessionQuery.queryKey, session);
      void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey, refetchType: 'none' });
    },
    [queryClient],
  );
}
