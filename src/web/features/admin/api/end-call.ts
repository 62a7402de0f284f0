import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminEndedCallSchema } from '../../../../common/api/admin';
import { api } from '../../../lib/api-client';
import { adminQueryKey } from './admin-queries';

/** Ends a call in progress, wherever the server holding it is; its users are told an administrator ended it. */
function endCall(callId: string) {
  return api.post(`/admin/calls/${encodeURIComponent(callId)}/end`, adminEndedCallSchema);
}

/**
 * `onEnded` is the mutation's own: it runs even once the call's row is gone, which the refreshed
 * list of calls may make happen before a callback given to `mutate` would.
 */
export function useEndCall(onEnded: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endCall,
    onSuccess: onEnded,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminQueryKey }),
  });
}
