import { queryOptions } from '@tanstack/react-query';
import { adminInstancesSchema, adminLiveCallsSchema, adminPaymentsSchema } from '../../../../common/api/admin';
import { api } from '../../../lib/api-client';

/** The page reads everything again this often, while the tab is visible (TanStack pauses it when hidden). */
const REFRESH_MS = 5_000;

/** Everything the Admin page shows sits under this key: ending a call refreshes it all. */
export const adminQueryKey = ['admin'] as const;

export const liveCallsQuery = queryOptions({
  queryKey: [...adminQueryKey, 'calls'],
  queryFn: async ({ signal }) => (await api.get('/admin/calls', adminLiveCallsSchema, signal)).calls,
  refetchInterval: REFRESH_MS,
});

export const instancesQuery = queryOptions({
  queryKey: [...adminQueryKey, 'instances'],
  queryFn: async ({ signal }) => (await api.get('/admin/instances', adminInstancesSchema, signal)).instances,
  refetchInterval: REFRESH_MS,
});

export const paymentsQuery = queryOptions({
  queryKey: [...adminQueryKey, 'payments'],
  queryFn: async ({ signal }) => (await api.get('/admin/payments', adminPaymentsSchema, signal)).payments,
  refetchInterval: REFRESH_MS,
});
