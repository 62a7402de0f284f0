import { queryOptions, useQuery } from '@tanstack/react-query';
import { voicemailListSchema } from '../../common/api/voicemail';
import { api } from './api-client';

// In lib rather than in the Voicemail page: the navigation shows the unheard count on every page,
// and a new message refreshes it in every open tab.

/** Everything under this key is the user's voicemail: a new message or a sync reloads it all. */
export const VOICEMAIL_QUERY_KEY = ['voicemail'] as const;

/** The user's messages, newest first, with how many are unheard. */
export const voicemailQuery = queryOptions({
  queryKey: [...VOICEMAIL_QUERY_KEY, 'messages'],
  queryFn: ({ signal }) => api.get('/voicemail', voicemailListSchema, signal),
});

/** How many messages are unheard; 0 until the list has loaded (the count is a hint, not a promise). */
export function useUnheardVoicemail(): number {
  return useQuery(voicemailQuery).data?.unheard ?? 0;
}

/** Where a message is on the Voicemail page: a missed call in Call History links here. */
export function voicemailHref(id: string): string {
  return `/voicemail#${voicemailElementId(id)}`;
}

/** The id of a message's element on the Voicemail page. */
export function voicemailElementId(id: string): string {
  return `voicemail-${id}`;
}
