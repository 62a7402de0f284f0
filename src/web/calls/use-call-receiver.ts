import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useRingtone } from '../audio/ringtone';
import { preferencesQuery } from '../lib/preferences';
import { useRealtime } from '../lib/realtime';
import { browserCallDeps } from './browser-call-deps';
import { CallSession } from './call-session';
import type { CallSnapshot } from './call-snapshot';

/** docs/product.md §3: the incoming call, and once answered the active received call. */
export type ReceivedCall = CallSnapshot;

/**
 * The Call Receiver (docs/product.md §4, docs/calls.md "Signalling"): listens for calls to the
 * user's numbers while the page is open. Leaving the page stops listening and ends whatever call it holds.
 */
export function useCallReceiver() {
  const realtime = useRealtime();
  const queryClient = useQueryClient();
  // Loaded with the page so Auto-Answer, notifications and Low Data Mode are known when a call rings.
  useQuery(preferencesQuery);
  const [session] = useState(() => new CallSession(browserCallDeps(queryClient)));
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  useRingtone(snapshot.direction === 'inbound' && snapshot.phase === 'ringing');
  useEffect(() => {
    const detach = session.attach(realtime);
    return () => {
      session.leave();
      detach();
    };
  }, [session, realtime]);
  const { startReceiving, stopReceiving, answer, reject, hangUp, toggleMute, toggleRecording, pressKey } = session;
  return { listening: snapshot.listening, call: snapshot.phase === 'idle' ? null : snapshot, elapsed: session.elapsed, figures: session.figures, startReceiving, stopReceiving, answer, reject, hangUp, toggleMute, toggleRecording, pressKey };
}

export type CallReceiver = ReturnType<typeof useCallReceiver>;
