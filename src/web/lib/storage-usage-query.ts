import { queryOptions } from '@tanstack/react-query';
import { storageUsageSchema } from '../../common/api/recordings';
import { api } from './api-client';

// In lib rather than in Settings: deleting a recording from Call History reloads it.

export const STORAGE_USAGE_QUERY_KEY = ['storage'] as const;

/** The bytes the user's recordings and voicemail take. */
export const storageUsageQuery = queryOptions({
  queryKey: STORAGE_USAGE_QUERY_KEY,
  queryFn: ({ signal }) => api.get('/storage', storageUsageSchema, signal),
});
