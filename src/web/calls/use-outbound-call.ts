import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { loadPhoneLibrary } from '../lib/phone-library';
import { toast } from '../lib/toast';
import { useRealtime } from '../lib/realtime';
import { browserCallDeps, loadCallMedia } from './browser-call-deps';
import { CallSession } from './call-session';
import type { CallSnapshot } from './call-snapshot';

export type { StartCall } from './call-placing';

/** docs/product.md §3 active call, as the active-call bar shows it. */
export type ActiveCall = CallSnapshot;

/** One outbound call at a time: places it, carries its audio, follows its state, ends it cleanly. */
export function useOutboundCall() {
  const realtime = useRealtime();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [session] = useState(() => new CallSession(browserCallDeps(queryClient, () => void navigate('/settings?tab=subscription'))));
  const call = useSyncExternalStore(session.subscribe, session.getSnapshot);
  useEffect(() => session.attach(realtime), [session, realtime]);
  // What a call needs, fetched once the page has shown: the media engine, and the phone library that
  // names the caller in the incoming-call notice. A failure to fetch is the call's to report, when one is placed.
  useEffect(() => {
    loadCallMedia().catch(() => undefined);
    loadPhoneLibrary().catch(() => undefined);
  }, []);
  // The server's word on the call in progress, such as the voice changer failing closed.
  useEffect(() => realtime?.subscribe((message) => (message.type === 'notice' ? void toast.warning(message.message) : undefined)), [realtime]);
  // Leaving the page ends the call rather than leaving it open on the server.
  useEffect(() => () => session.leave(), [session]);
  return { call, elapsed: session.elapsed, figures: session.figures, start: session.place, hangUp: session.hangUp, toggleMute: session.toggleMute, toggleRecording: session.toggleRecording, pressKey: session.pressKey };
}
