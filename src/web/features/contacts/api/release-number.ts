import { useMutation, useQueryClient } from '@tanstack/react-query';
import { okSchema } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';

/** Gives the number back to the carrier; a provider failure (502) keeps it rented. */
function releaseNumber(id: string) {
  return api.delete(`/numbers/${encodeURIComponent(id)}`, okSchema);
}

export function useReleaseNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseNumber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: phoneNumbersQuery.queryKey }),
  });
}
