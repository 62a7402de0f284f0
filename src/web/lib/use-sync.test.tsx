import { useQuery, type QueryKey } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultPreferences, type Preferences } from '../../common/api/preferences';
import { syncTopics, type SyncTopic } from '../../common/realtime';
import { FakeSignalling } from '../../../tests/support/fake-signalling';
import { renderWithRoute } from '../../../tests/support/render-web';
import { callHistoryQuery } from '../calls/call-history-query';
import { callLinesQuery } from '../calls/call-lines-query';
import { voicemailGreetingQuery } from '../features/call-settings/api/voicemail-greeting';
import { voiceSettingsQuery } from '../features/call-settings/api/get-voice-settings';
import { contactsQuery } from '../features/contacts/api/get-contacts';
import { numberLimitQuery } from '../features/contacts/api/get-number-limit';
import { accountQuery } from '../features/settings/api/get-account';
import { phoneNumbersQuery } from './phone-numbers';
import { preferencesQuery } from './preferences';
import { RealtimeClientProvider } from './realtime';
import { storageUsageQuery } from './storage-usage-query';
import { minutesQuery, subscriptionQuery } from './subscription';
import { syncQueryKeys, SyncWithOtherTabs } from './use-sync';
import { voicemailQuery } from './voicemail-query';

const covers = (prefix: QueryKey, key: QueryKey) => prefix.every((part, index) => key[index] === part);

/** A page's queries, each counting its loads; the preferences answer what the server holds now. */
function renderSyncedTab(keys: QueryKey[], saved: { preferences: Preferences }) {
  const loads = new Map<string, number>(keys.map((key) => [JSON.stringify(key), 0]));
  function Load({ queryKey }: { queryKey: QueryKey }) {
    useQuery({
      queryKey,
      queryFn: () => {
        loads.set(JSON.stringify(queryKey), (loads.get(JSON.stringify(queryKey)) ?? 0) + 1);
        return covers(preferencesQuery.queryKey, queryKey) ? saved.preferences : {};
      },
    });
    return null;
  }
  const signalling = new FakeSignalling((deliver) => act(deliver));
  const view = renderWithRoute(
    <RealtimeClientProvider client={signalling}>
      <SyncWithOtherTabs />
      {keys.map((queryKey) => (
        <Load key={JSON.stringify(queryKey)} queryKey={queryKey} />
      ))}
    </RealtimeClientProvider>,
  );
  const loadsOf = (key: QueryKey) => loads.get(JSON.stringify(key));
  return { ...view, signalling, loadsOf };
}

describe('useSync', () => {
  it('reloads, for each topic, every query the pages keep of it', () => {
    const pageQueries: [SyncTopic, QueryKey][] = [
      ['history', callHistoryQuery.queryKey],
      ['history', minutesQuery.queryKey],
      ['contacts', contactsQuery.queryKey],
      ['numbers', phoneNumbersQuery.queryKey],
      ['numbers', numberLimitQuery.queryKey],
      ['numbers', callLinesQuery.queryKey],
      ['voice', voiceSettingsQuery.queryKey],
      ['preferences', preferencesQuery.queryKey],
      ['voicemail', voicemailQuery.queryKey],
      ['voicemail', voicemailGreetingQuery.queryKey],
      ['voicemail', storageUsageQuery.queryKey],
      ['recordings', storageUsageQuery.queryKey],
      ['recordings', callHistoryQuery.queryKey],
      ['subscription', subscriptionQuery.queryKey],
      ['subscription', voiceSettingsQuery.queryKey],
      ['account', accountQuery.queryKey],
    ];
    for (const [topic, key] of pageQueries) expect(syncQueryKeys[topic].some((prefix) => covers(prefix, key)), `${topic} → ${JSON.stringify(key)}`).toBe(true);
    expect(Object.keys(syncQueryKeys).sort()).toEqual([...syncTopics].sort());
  });

  it('reloads what a sync message names, and nothing else', async () => {
    const { signalling, loadsOf } = renderSyncedTab([contactsQuery.queryKey, voiceSettingsQuery.queryKey], { preferences: defaultPreferences });
    await waitFor(() => expect(loadsOf(contactsQuery.queryKey)).toBe(1));
    await waitFor(() => expect(loadsOf(voiceSettingsQuery.queryKey)).toBe(1));

    signalling.deliver({ type: 'sync', topics: ['contacts'] });
    await waitFor(() => expect(loadsOf(contactsQuery.queryKey)).toBe(2));
    expect(loadsOf(voiceSettingsQuery.queryKey)).toBe(1);
  });

  it('applies a Dark Mode saved on another device', async () => {
    window.localStorage.setItem('theme', 'light');
    const saved = { preferences: { ...defaultPreferences, darkMode: false } };
    const { signalling, loadsOf } = renderSyncedTab([preferencesQuery.queryKey], saved);
    await waitFor(() => expect(loadsOf(preferencesQuery.queryKey)).toBe(1));
    expect(document.documentElement).toHaveClass('light');

    saved.preferences = { ...defaultPreferences, darkMode: true };
    signalling.deliver({ type: 'sync', topics: ['preferences'] });
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it('reloads everything once after the socket opened again, since messages may have been missed meanwhile', async () => {
    const keys = [contactsQuery.queryKey, callHistoryQuery.queryKey, accountQuery.queryKey, subscriptionQuery.queryKey, minutesQuery.queryKey];
    const { signalling, loadsOf } = renderSyncedTab(keys, { preferences: defaultPreferences });
    await waitFor(() => expect(keys.map(loadsOf)).toEqual([1, 1, 1, 1, 1]));

    act(() => signalling.reconnect());
    await waitFor(() => expect(keys.map(loadsOf)).toEqual([2, 2, 2, 2, 2]));
  });
});
