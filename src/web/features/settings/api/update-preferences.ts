import { useMutation, useQueryClient } from '@tanstack/react-query';
import { preferencesQuery, updatePreferences } from '../../../lib/preferences';

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (preferences) => queryClient.setQueryData(preferencesQuery.queryKey, preferences),
  });
}
