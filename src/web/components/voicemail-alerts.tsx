import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '../lib/toast';
import { defaultPreferences } from '../../common/api/preferences';
import { formatPhoneNumberNow } from '../lib/phone-library';
import { preferencesQuery } from '../lib/preferences';
import { useRealtime } from '../lib/realtime';
import { VOICEMAIL_QUERY_KEY } from '../lib/voicemail-query';

/**
 * A system notification for a new message. Every open tab hears the message: the tag makes the
 * browser show one notification, however many tabs are open.
 */
function notifyNewVoicemail(voicemailId: string, from: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const notification = new Notification('New voicemail', { body: `From ${formatPhoneNumberNow(from)}`, tag: `voxline-voicemail-${voicemailId}` });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
}

/**
 * docs/product.md §2 Voicemail: a message left for the user reaches every open tab through the
 * realtime socket: the list and the navigation's unheard count reload, a notice says who called, and
 * a system notification does too when the Notifications preference is on.
 */
export function VoicemailAlerts() {
  const realtime = useRealtime();
  const queryClient = useQueryClient();

  useEffect(
    () =>
      realtime?.subscribe((message) => {
        if (message.type !== 'voicemail.new') return;
        void queryClient.invalidateQueries({ queryKey: VOICEMAIL_QUERY_KEY });
        toast(`New voicemail from ${formatPhoneNumberNow(message.from)}`, { id: `voicemail-${message.voicemailId}` });
        const preferences = queryClient.getQueryData(preferencesQuery.queryKey) ?? defaultPreferences;
        if (preferences.notifications) notifyNewVoicemail(message.voicemailId, message.from);
      }),
    [realtime, queryClient],
  );

  return null;
}
