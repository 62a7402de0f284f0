import { queryOptions } from '@tanstack/react-query';
import { numbersListSchema } from '../../../../common/api/numbers';
import { api } from '../../../lib/api-client';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';

/**
 * The plan's limit on numbers and how many the user holds, read each time the Add Number dialog
 * opens (a plan bought or expired since the page loaded counts). Under the numbers' key, so renting
 * and releasing refresh it with them.
 */
export const numberLimitQuery = queryOptions({
  queryKey: [...phoneNumbersQuery.queryKey, 'limit'],
  queryFn: async ({ signal }) => {
    const { numbers, limit } = await api.get('/numbers', numbersListSchema, signal);
    return { ...limit, held: numbers.length };
  },
});
