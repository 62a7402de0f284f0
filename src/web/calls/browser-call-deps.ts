import type { QueryClient } from '@tanstack/react-query';
import { toast } from '../lib/toast';
import { defaultPreferences } from '../../common/api/preferences';
import { preferencesQuery } from '../lib/preferences';
import { callHistoryQuery } from './call-history-query';
import type { CallSessionDeps, Clock, Notices } from './call-session-ports';
import { getCall } from './get-call';
import { hangUpCall } from './hang-up-call';
import { askNotificationPermission, notifyIncomingCall } from './incoming-call-notification';
import { placeCall } from './place-call';
import { saveMediaFigures } from './save-media-figures';
import { sendDtmf } from './send-dtmf';

/**
 * The microphone and the call's audio: WebRTC, the websocket fallback with its Opus codec, and the
 * audio worklets' host. Fetched once the signed-in page has shown (use-outbound-call.ts) and awaited
 * by a call placed before it arrives, rather than in every signed-in page's first load (decision 041).
 */
export function loadCallMedia() {
  return import('./call-media-engine');
}

// Timers are looked up when used, not when this module loads, so a test's fake timers apply.
const browserClock: Clock = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  every(ms, run) {
    const timer = setInterval(run, ms);
    return () => clearInterval(timer);
  },
};

const toasts: Notices = {
  info: (title, options) => toast(title, options),
  success: (title, options) => toast.success(title, options),
  warning: (title, options) => toast.warning(title, options),
  error: (title, options) => toast.error(title, options),
  dismiss: (id) => toast.dismiss(id),
};

/** A CallSession's dependencies in the page: the API, the microphone and media socket, timers, toasts. */
export function browserCallDeps(queryClient: QueryClient, openPlans: () => void = () => undefined): CallSessionDeps {
  return {
    server: { placeCall, getCall, hangUpCall, sendDtmf, saveMediaFigures },
    media: {
      openMicrophone: async () => (await loadCallMedia()).openMicrophone(),
      connect: async (options) => (await loadCallMedia()).CallMedia.connect(options),
    },
    clock: browserClock,
    notices: toasts,
    alerts: { askPermission: askNotificationPermission, notify: notifyIncomingCall },
    preferences: () => queryClient.getQueryData(preferencesQuery.queryKey) ?? defaultPreferences,
    onCallEnded: () => void queryClient.invalidateQueries({ queryKey: callHistoryQuery.queryKey }),
    openPlans,
  };
}
