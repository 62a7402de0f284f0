import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contactSchema, type UpdateContactBody } from '../../../../common/api/contacts';
import { api } from '../../../lib/api-client';
import { contactsQuery } from './get-contacts';

function updateContact({ id, changes }: { id: string; changes: UpdateContactBody }) {
  return api.patch(`/contacts/${encodeURIComponent(id)}`, contactSchema, changes);
}

export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsQuery.queryKey }),
  });
}
