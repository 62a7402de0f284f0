import { queryOptions } from '@tanstack/react-query';
import { contactsSchema } from '../../../../common/api/contacts';
import { api } from '../../../lib/api-client';

/** Every contact of the user, sorted by name by the server; the page filters them as the user types. */
export const contactsQuery = queryOptions({
  queryKey: ['contacts'],
  queryFn: async ({ signal }) => (await api.get('/contacts', contactsSchema, signal)).contacts,
});
