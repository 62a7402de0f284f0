import { useMutation, useQueryClient } from '@tanstack/react-query';
import { okSchema } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';
import { contactsQuery } from './get-contacts';

function deleteContact(id: string) {
  return api.delete(`/contacts/${encodeURIComponent(id)}`, okSchema);
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsQuery.queryKey }),
  });
}
