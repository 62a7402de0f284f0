import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountSchema } from '../../../../common/api/account';
import { api } from '../../../lib/api-client';

export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: ({ signal }) => api.get('/account', accountSchema, signal),
});

export function useAccount() {
  return useQuery(accountQuery);
}
