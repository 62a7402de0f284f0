import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ownedNumberSchema } from '../../../../common/api/numbers';
import { api } from '../../../lib/api-client';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';

/** '' clears the friendly name. */
function renameNumber({ id, friendlyName }: { id: string; friendlyName: string }) {
  return api.patch(`/numbers/${encodeURIComponent(id)}`, ownedNumberSchema, { friendlyName });
}

export function useRenameNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameNumber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: phoneNumbersQuery.queryKey }),
  });
}
