import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionAnswerSchema, type Session } from '../../common/api/session';
import { api, ApiError } from './api-client';

/** The signed-in user, or null when the server answers null (or 401, as servers before decision 025 do). */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async ({ signal }): Promise<Session | null> => {
    try {
      // The page's first check reads the answer index.html asked for (lib/early-requests.ts).
      return await api.get('/session', sessionAnswerSchema, signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}
