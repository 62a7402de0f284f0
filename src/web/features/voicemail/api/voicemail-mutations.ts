import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { markVoicemailBodySchema, voicemailSchema, type Voicemail, type VoicemailList } from '../../../../common/api/voicemail';
import { api } from '../../../lib/api-client';
import { voicemailQuery } from '../../../lib/voicemail-query';

function markVoicemail({ id, heard }: { id: string; heard: boolean }) {
  return api.patch(`/voicemail/${encodeURIComponent(id)}`, voicemailSchema, { heard }, markVoicemailBodySchema);
}

/** The list with one message replaced, and the unheard count following it. */
function withMessage(list: VoicemailList, message: Voicemail): VoicemailList {
  const voicemails = list.voicemails.map((each) => (each.id === message.id ? message : each));
  return { voicemails, unheard: voicemails.filter((each) => !each.heard).length };
}

/** Marks a message heard or unheard; the list and the navigation's count follow at once. */
export function useMarkVoicemail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markVoicemail,
    onSuccess: (message) => queryClient.setQueryData(voicemailQuery.queryKey, (list) => (list ? withMessage(list, message) : list)),
  });
}

function deleteVoicemail(id: string) {
  // 204: no body.
  return api.delete(`/voicemail/${encodeURIComponent(id)}`, z.undefined());
}

export function useDeleteVoicemail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVoicemail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: voicemailQuery.queryKey }),
  });
}
