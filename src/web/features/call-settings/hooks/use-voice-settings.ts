import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { voicePlanRefusal } from '../../../../common/api/voice-settings';
import { defaultVoiceSettings, isDefaultVoice, roundToVoiceStep, voiceTypeLabels, type VoiceSettings, type VoiceType } from '../../../../common/voice';
import { ApiError } from '../../../lib/api-client';
import { withErrorReference } from '../../../lib/error-reference';
import { voiceSettingsQuery } from '../api/get-voice-settings';
import { saveVoiceSettings } from '../api/save-voice-settings';
import { readStoredVoiceSettings, storeVoiceSettings } from '../../../lib/voice-settings-storage';

/** A slider drag reports every step; one save follows the last of them. */
export const SAVE_DELAY_MS = 300;

const PLANS_HINT = 'See the plans under Settings → Subscription.';

function saveFailureNotice(error: unknown) {
  if (error instanceof ApiError && error.code === 'plan_required') toast.error(error.message, { description: PLANS_HINT });
  else toast.error('Failed to save voice settings', { description: error instanceof Error ? withErrorReference(error.message, error) : undefined });
}

/**
 * The Voice Accent Changer's state: the server's settings, shown at once from local storage while
 * they load; each change shown and stored locally at once, then saved (debounced), and rolled back
 * with a notice when the save fails.
 */
export function useVoiceSettings() {
  const queryClient = useQueryClient();
  const query = useQuery(voiceSettingsQuery);
  const [stored] = useState(readStoredVoiceSettings);
  // A change the server has not confirmed yet; dropping it shows the confirmed settings again.
  const [draft, setDraft] = useState<VoiceSettings | null>(null);
  const latestChange = useRef(0);
  const unsent = useRef<{ change: number; settings: VoiceSettings } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saving = useRef<Promise<void>>(Promise.resolve());

  const confirmed = query.data?.settings;
  const settings = draft ?? confirmed ?? stored;
  const tier = query.data?.tier;

  useEffect(() => {
    if (confirmed && !draft) storeVoiceSettings(confirmed);
  }, [confirmed, draft]);

  const send = useCallback(
    (change: number, next: VoiceSettings) => {
      // One save at a time, in order, so the server ends with the last change rather than whichever request lands last.
      saving.current = saving.current.then(async () => {
        try {
          queryClient.setQueryData(voiceSettingsQuery.queryKey, await saveVoiceSettings(next));
          if (change === latestChange.current) setDraft(null);
        } catch (error) {
          // A later change is on its way with all three values; only the last one's failure is the user's to hear about.
          if (change !== latestChange.current) return;
          const last = queryClient.getQueryData(voiceSettingsQuery.queryKey)?.settings;
          if (last) storeVoiceSettings(last);
          setDraft(null);
          saveFailureNotice(error);
        }
      });
      return saving.current;
    },
    [queryClient],
  );

  /** Sends the change waiting for its debounce now; resolves once every save so far has settled. */
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const waiting = unsent.current;
    unsent.current = null;
    return waiting ? send(waiting.change, waiting.settings) : saving.current;
  }, [send]);

  // Leaving the page (or the tab) must not lose the last change.
  useEffect(() => () => void flush(), [flush]);

  const change = useCallback(
    (next: VoiceSettings) => {
      latestChange.current += 1;
      unsent.current = { change: latestChange.current, settings: next };
      setDraft(next);
      storeVoiceSettings(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), SAVE_DELAY_MS);
    },
    [flush],
  );

  /** Refuses, with the server's words, what the plan does not include; true when the change may go ahead. */
  const allowedByPlan = (next: VoiceSettings) => {
    if (!tier) return false;
    const refusal = voicePlanRefusal(next, tier);
    if (refusal) toast.error(refusal, { description: PLANS_HINT });
    return refusal === null;
  };

  function changeAccent(voiceType: VoiceType) {
    if (voiceType === settings.voiceType) return;
    const next = { ...settings, voiceType };
    if (!allowedByPlan(next)) return;
    change(next);
    toast('Accent changed', { description: voiceTypeLabels[voiceType] });
  }

  function changeAmount(key: 'pitch' | 'speed', value: number) {
    const next = { ...settings, [key]: roundToVoiceStep(value) };
    if (next[key] === settings[key] || !allowedByPlan(next)) return;
    change(next);
  }

  /** docs/product.md §4: pitch and speed back to 1, the normal accent; open to every plan. */
  function reset() {
    if (!isDefaultVoice(settings)) change({ ...defaultVoiceSettings });
    toast('Voice reset', { description: 'Pitch and speed are back to 1.00x and the accent to normal.' });
  }

  return {
    query,
    settings,
    tier,
    allowed: query.data?.allowed,
    /** Why calls will not use the shown settings (saved on a plan that has since ended), or null. */
    beyondPlan: tier ? voicePlanRefusal(settings, tier) : null,
    changeAccent,
    changePitch: (value: number) => changeAmount('pitch', value),
    changeSpeed: (value: number) => changeAmount('speed', value),
    reset,
    flush,
  };
}

export type VoiceSettingsState = ReturnType<typeof useVoiceSettings>;
