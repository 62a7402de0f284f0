import { queryOptions } from '@tanstack/react-query';
import { ownedNumbersSchema } from '../../common/api/numbers';
import { api } from './api-client';

// In lib rather than in a feature: the Phone Management page lists these numbers, the dialer calls
// from them and the call receiver listens on them.

/** The signed-in user's rented numbers, the first rented first. */
export const phoneNumbersQuery = queryOptions({
  queryKey: ['phone-numbers'],
  queryFn: async ({ signal }) => (await api.get('/numbers', ownedNumbersSchema, signal)).numbers,
});
