import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { syncTopics, type SyncTopic } from '../../common/realtime';
import { preferencesQuery } from './preferences';
import { useRealtime } from './realtime';
import { useTheme, type Theme } from './theme';

/**
 * The queries each sync topic reloads (a key covers every longer key it begins). Written out here
 * rather than imported: lib does not depend on the pages, and use-sync.test.ts checks that each
 * page's query is covered.
 */
export const syncQueryKeys: Record<SyncTopic, readonly QueryKey[]> = {
  // A call ended: its record, and the minutes it used.
  history: [['calls', 'history'], ['subscription', 'minutes']],
  contacts: [['contacts']],
  // The numbers, and the lines calls are placed from.
  numbers: [['phone-numbers'], ['calls', 'lines']],
  voice: [['voice-settings']],
  preferences: [['preferences']],
  // The messages, their unheard count, the greeting, and the storage they take.
  voicemail: [['voicemail'], ['storage']],
  // A recording shows in Call History and counts in the storage used.
  recordings: [['recordings'], ['storage'], ['calls', 'history']],
  // The plan decides the voices allowed and the numbers a user may rent.
  subscription: [['subscription'], ['voice-settings'], ['phone-numbers']],
  account: [['account']],
};

/** Whether `prefix` names `key` too, as TanStack Query matches keys. */
const covers = (prefix: QueryKey, key: QueryKey) => prefix.length <= key.length && prefix.every((part, index) => key[index] === part);

/**
 * Reloads what the topics name. A changed Dark Mode applies here too (docs/product.md §1): the
 * theme follows the saved preference on every device, not only once per sign-in.
 */
async function reloadTopics(queryClient: QueryClient, topics: readonly SyncTopic[], applyTheme: (theme: Theme) => void) {
  // Each query once: a second invalidation of a query being reloaded would start its load over.
  const named = [...new Map(topics.flatMap((topic) => syncQueryKeys[topic]).map((key) => [JSON.stringify(key), key])).values()];
  const keys = named.filter((key) => !named.some((other) => other !== key && covers(other, key)));
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  if (!topics.includes('preferences')) return;
  const preferences = queryClient.getQueryData(preferencesQuery.queryKey);
  if (preferences) applyTheme(preferences.darkMode ? 'dark' : 'light');
}

/**
 * Keeps this tab in step with the user's other tabs and devices (docs/architecture.md#sync): a
 * `sync` message reloads what it names; a socket that opened again may have missed some, so
 * everything is reloaded once.
 */
function useSync() {
  const realtime = useRealtime();
  const queryClient = useQueryClient();
  const { setTheme } = useTheme();

  useEffect(() => {
    if (!realtime) return;
    const unsubscribe = realtime.subscribe((message) => {
      if (message.type === 'sync') void reloadTopics(queryClient, message.topics, setTheme);
    });
    const unwatch = realtime.onConnect((again) => {
      if (again) void reloadTopics(queryClient, syncTopics, setTheme);
    });
    return () => {
      unsubscribe();
      unwatch();
    };
  }, [realtime, queryClient, setTheme]);
}

/** Mounted once in the signed-in pages' layout. */
export function SyncWithOtherTabs() {
  useSync();
  return null;
}
