import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiErrorSchema } from '../../../../common/api/errors';
import { voicemailGreetingSchema, type VoicemailGreeting } from '../../../../common/api/voicemail';
import { api, ApiError } from '../../../lib/api-client';
import { VOICEMAIL_QUERY_KEY } from '../../../lib/voicemail-query';

/** Where the greeting callers hear is played from, for the owner. */
export const GREETING_AUDIO_URL = '/api/v1/voicemail/greeting/audio';

export const voicemailGreetingQuery = queryOptions({
  queryKey: [...VOICEMAIL_QUERY_KEY, 'greeting'],
  queryFn: ({ signal }) => api.get('/voicemail/greeting', voicemailGreetingSchema, signal),
});

/**
 * Uploads a recorded greeting. Not through the JSON client: the body is the WAV file itself
 * (docs/api.md), and the answer, or the API's error, is read the same way.
 */
async function uploadGreeting(wav: Blob): Promise<VoicemailGreeting> {
  let response: Response;
  try {
    response = await fetch('/api/v1/voicemail/greeting', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'audio/wav' },
      body: wav,
    });
  } catch {
    throw ApiError.network();
  }
  const requestId = response.headers.get('x-request-id');
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const failure = apiErrorSchema.safeParse(json);
    if (failure.success) throw new ApiError(response.status, failure.data.error.code, failure.data.error.message, failure.data.error.field, requestId);
    throw new ApiError(response.status, 'http_error', `The server answered ${response.status}`, undefined, requestId);
  }
  const greeting = voicemailGreetingSchema.safeParse(json);
  if (!greeting.success) throw new ApiError(response.status, 'bad_response', 'The server sent an answer this page does not understand', undefined, requestId);
  return greeting.data;
}

function useGreetingMutation<T>(mutationFn: (input: T) => Promise<VoicemailGreeting>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (greeting) => queryClient.setQueryData(voicemailGreetingQuery.queryKey, greeting),
  });
}

export function useUploadGreeting() {
  return useGreetingMutation(uploadGreeting);
}

/** Back to the default greeting shipped with the app. */
export function useResetGreeting() {
  return useGreetingMutation(() => api.delete('/voicemail/greeting', voicemailGreetingSchema));
}
