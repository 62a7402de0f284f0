import { queryOptions } from '@tanstack/react-query';
import { voiceSettingsAnswerSchema } from '../../../../common/api/voice-settings';
import { api } from '../../../lib/api-client';

/** The saved voice settings with what the user's plan allows. */
export const voiceSettingsQuery = queryOptions({
  queryKey: ['voice-settings'],
  queryFn: ({ signal }) => api.get('/voice-settings', voiceSettingsAnswerSchema, signal),
});
