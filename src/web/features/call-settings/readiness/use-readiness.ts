import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { defaultPreferences } from '../../../../common/api/preferences';
import { allowMicrophone } from '../../../audio/devices/microphone-permission';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { preferencesQuery } from '../../../lib/preferences';
import { useRealtime } from '../../../lib/realtime';
import { readinessChecks, type FixAction, type ReadinessCheck } from './readiness-checks';
import { listenToMicrophone, playTestTone, probeReadiness, reconnecting, unlockSound } from './readiness-probes';

/** How long Check now listens to an allowed microphone for its level. */
const LISTEN_MS = 1_500;
/** How long Reconnect waits for the socket before checking again. */
const RECONNECT_WAIT_MS = 5_000;

/** The person said they heard the test tone: kept for the page's life, shared by every readiness panel. */
let speakerHeard = false;

export type TonePhase = 'idle' | 'playing' | 'played';

/**
 * The "Ready to take calls" check (docs/product.md "Ready to take calls"): runs the checks, keeps
 * their results and the microphone's live stream, and carries out their fix-it actions. Nothing
 * asks for a permission except a fix-it action the person pressed.
 */
export function useReadiness({ listenToMicrophone: listen }: { listenToMicrophone: boolean }) {
  const signalling = useRealtime();
  const numbers = useQuery(phoneNumbersQuery);
  const preferences = useQuery(preferencesQuery);
  const [checks, setChecks] = useState<ReadinessCheck[] | null>(null);
  const [running, setRunning] = useState(false);
  const [tone, setTone] = useState<TonePhase>('idle');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [fixError, setFixError] = useState<string | null>(null);
  const numberCount = numbers.isError ? null : (numbers.data?.length ?? null);
  const notificationsWanted = (preferences.data ?? defaultPreferences).notifications;

  useEffect(() => () => stream?.getTracks().forEach((track) => track.stop()), [stream]);

  const run = useCallback(async (): Promise<ReadinessCheck[]> => {
    setRunning(true);
    setStream(null);
    try {
      const facts = await probeReadiness({
        signalling,
        numbers: numberCount,
        notificationsWanted,
        speakerConfirmed: speakerHeard,
        listen: listen
          ? async () => {
              const heard = await listenToMicrophone(LISTEN_MS);
              setStream(heard.stream);
              return heard.loudest;
            }
          : undefined,
      });
      const results = readinessChecks(facts);
      setChecks(results);
      return results;
    } finally {
      setRunning(false);
    }
  }, [listen, signalling, numberCount, notificationsWanted]);

  async function fix(action: FixAction) {
    setFixError(null);
    try {
      if (action === 'allow-microphone') await allowMicrophone();
      if (action === 'allow-notifications' && typeof Notification !== 'undefined') await Notification.requestPermission();
      if (action === 'unlock-sound') await unlockSound();
      if (action === 'reconnect') await reconnect();
      if (action === 'play-tone') {
        setTone('playing');
        await playTestTone();
        setTone('played');
        return;
      }
    } catch (error) {
      setFixError(action === 'allow-microphone' ? 'Microphone access was refused. Allow the microphone for this site in the browser and check again.' : (error as Error).message);
    }
    await run();
  }

  function reconnect(): Promise<void> {
    const client = reconnecting(signalling);
    if (!client || !signalling) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, RECONNECT_WAIT_MS);
      const unwatch = signalling.onConnect(done);
      function done() {
        clearTimeout(timer);
        unwatch();
        resolve();
      }
      client.reconnectNow();
    });
  }

  async function confirmHeard(heard: boolean) {
    setTone('idle');
    speakerHeard = heard;
    await run();
  }

  return { checks, running, run, fix, tone, confirmHeard, stream, fixError };
}

export type Readiness = ReturnType<typeof useReadiness>;
