import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contactSchema, type CreateContactBody } from '../../../../common/api/contacts';
import { api } from '../../../lib/api-client';
import { contactsQuery } from './get-contacts';

// The body goes as typed: the server reads the number in the user's country and answers 400
// 'Enter a valid phone number' when it cannot.
function createContact(body: CreateContactBody) {
  return api.post('/contacts', contactSchema, body);
}

export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsQuery.queryKey }),
  });
}
