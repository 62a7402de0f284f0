import { queryOptions } from '@tanstack/react-query';
import { callHistorySchema } from '../../common/api/calls';
import { api } from '../lib/api-client';

export const callHistoryQuery = queryOptions({
  queryKey: ['calls', 'history'],
  queryFn: async ({ signal }) => (await api.get('/calls', callHistorySchema, signal)).calls,
});
