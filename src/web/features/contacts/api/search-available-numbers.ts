import { queryOptions } from '@tanstack/react-query';
import { availableNumbersSchema } from '../../../../common/api/numbers';
import type { SupportedCountryCode } from '../../../../common/countries';
import { api } from '../../../lib/api-client';

export interface NumberSearch {
  country: SupportedCountryCode;
  /** As typed; '' searches without a pattern. */
  pattern: string;
}

function searchAvailableNumbers({ country, pattern }: NumberSearch, signal?: AbortSignal) {
  const query = new URLSearchParams({ country });
  if (pattern.trim()) query.set('pattern', pattern.trim());
  return api.get(`/numbers/available?${query}`, availableNumbersSchema, signal).then(({ numbers }) => numbers);
}

/**
 * One press of Search. Results are not kept once nobody shows them (a number offered a minute ago
 * may be rented since), and a failure is shown at once: searching again is the user's call.
 */
export const availableNumbersQuery = (search: NumberSearch) =>
  queryOptions({
    queryKey: ['available-numbers', search],
    queryFn: ({ signal }) => searchAvailableNumbers(search, signal),
    retry: false,
    gcTime: 0,
  });
