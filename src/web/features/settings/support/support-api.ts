import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { supportRequestSchema, supportRequestsSchema, type SupportRequestBody } from '../../../../common/api/support';
import { api } from '../../../lib/api-client';

export const supportRequestsQuery = queryOptions({
  queryKey: ['support'],
  queryFn: ({ signal }) => api.get('/support', supportRequestsSchema, signal),
});

export function useSendSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SupportRequestBody) => api.post('/support', supportRequestSchema, body),
    // A request the inbox did not take is kept too (502): the list shows it either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: supportRequestsQuery.queryKey }),
  });
}
