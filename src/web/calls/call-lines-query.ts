import { queryOptions } from '@tanstack/react-query';
import { callLinesSchema } from '../../common/api/calls';
import { api } from '../lib/api-client';

export const callLinesQuery = queryOptions({
  queryKey: ['calls', 'lines'],
  queryFn: ({ signal }) => api.get('/calls/lines', callLinesSchema, signal),
  staleTime: Infinity,
});
