import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from './toast';
import { preferencesSchema, updatePreferencesBodySchema, type Preferences } from '../../common/api/preferences';
import { api } from './api-client';
import { withErrorReference } from './error-reference';
import { sessionQuery } from './session';
import { useTheme } from './theme';

// Preferences live in lib rather than in features/settings: the theme of every page follows Dark Mode.

export const preferencesQuery = queryOptions({
  queryKey: ['preferences'],
  queryFn: ({ signal }) => api.get('/preferences', preferencesSchema, signal),
});

export function updatePreferences(changes: Partial<Preferences>) {
  return api.patch('/preferences', preferencesSchema, changes, updatePreferencesBodySchema);
}

/**
 * Keeps a signed-in user's theme and their Dark Mode preference in step: the saved value is applied
 * once each time a session loads, and a later toggle of the theme is saved. It only reads the session
 * others have loaded, so a signed-out visitor causes no request.
 */
function usePreferencesThemeSync() {
  const { setTheme, subscribeToThemeChoice } = useTheme();
  const { data: session } = useQuery({ ...sessionQuery, enabled: false });
  const userId = session?.user.id ?? null;
  const signedIn = userId !== null;
  const preferences = useQuery({ ...preferencesQuery, enabled: signedIn });
  const queryClient = useQueryClient();
  // The user whose saved theme has been applied in this session; cleared when the session ends.
  const appliedForUser = useRef<string | null>(null);

  useEffect(() => {
    if (!userId) {
      appliedForUser.current = null;
      return;
    }
    if (preferences.data && appliedForUser.current !== userId) {
      appliedForUser.current = userId;
      setTheme(preferences.data.darkMode ? 'dark' : 'light');
    }
  }, [userId, preferences.data, setTheme]);

  useEffect(() => {
    if (!signedIn) return;
    // A plain request rather than a mutation (features/settings/api/update-preferences.ts): TanStack's
    // mutations would join every signed-in page's first load for this one toggle (decision 041).
    return subscribeToThemeChoice((theme) => {
      updatePreferences({ darkMode: theme === 'dark' }).then(
        (saved) => queryClient.setQueryData(preferencesQuery.queryKey, saved),
        (error: Error) => toast.error('Failed to update preferences.', { description: withErrorReference(error.message, error) }),
      );
    });
  }, [signedIn, subscribeToThemeChoice, queryClient]);
}

export function PreferencesThemeSync() {
  usePreferencesThemeSync();
  return null;
}
