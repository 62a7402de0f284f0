import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { api } from '../../../lib/api-client';
import { callHistoryQuery } from '../../../calls/call-history-query';
import { STORAGE_USAGE_QUERY_KEY } from '../../../lib/storage-usage-query';

/** Where a recording's audio is played from; `download` asks for it as a file to save. */
export function recordingAudioUrl(id: string, { download = false } = {}): string {
  return `/api/v1/recordings/${encodeURIComponent(id)}/audio${download ? '?download=1' : ''}`;
}

function deleteRecording(id: string) {
  // 204: no body.
  return api.delete(`/recordings/${encodeURIComponent(id)}`, z.undefined());
}

/** Deletes a recording; the history (which links calls to their recordings) and the storage used reload. */
export function useDeleteRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRecording,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: callHistoryQuery.queryKey }), queryClient.invalidateQueries({ queryKey: STORAGE_USAGE_QUERY_KEY })]),
  });
}
