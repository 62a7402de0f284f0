import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { defaultPreferences, type Preferences } from '../../common/api/preferences';
import { formatDuration, NARROWBAND_RATE, WIDEBAND_RATE, type CallOutcome } from '../../common/calls';
import { formatPhoneNumber } from '../../common/phone';
import type { ServerMessage } from '../../common/realtime';
import { MicrophoneError, openMicrophone } from '../audio/call-audio';
import { useRingtone } from '../audio/ringtone';
import { preferencesQuery } from '../lib/preferences';
import { useRealtime } from '../lib/realtime';
import { callHistoryQuery } from './call-history-query';
import { CallMedia, mediaPathOf, SIGNED_OUT_REASON } from './call-media';
import { getCall } from './get-call';
import { hangUpCall } from './hang-up-call';
import { askNotificationPermission, notifyIncomingCall } from './incoming-call-notification';

/** Issue 6: Auto-Answer Incoming Calls answers after one ring. */
export const AUTO_ANSWER_DELAY_MS = 3_000;
/** SPEC §9: the incoming-call notice stays 10 seconds. */
export const INCOMING_NOTICE_MS = 10_000;
/**
 * The server closes the media socket just before it sends call.ended: a drop is only a failure when
 * no call.ended follows within this time.
 */
const MEDIA_DROP_GRACE_MS = 1_000;

export type ReceivedCallPhase = 'ringing' | 'answering' | 'active';

/** SPEC §3: the incoming call, and once answered the active received call. */
export interface ReceivedCall {
  callId: string;
  from: string;
  /** When it started ringing (ms since the epoch). */
  timestamp: number;
  phase: ReceivedCallPhase;
  /** When it was answered, as the server recorded it; null until then. */
  answeredAt: number | null;
  isMuted: boolean;
}

/** The resources of the call in this tab, kept out of React state so events and cleanup see the latest. */
interface LiveCall {
  call: ReceivedCall;
  /** call.answer has gone out; an `error` from the server until call.state answered means it failed. */
  answerSent: boolean;
  stream: MediaStream | null;
  media: CallMedia | null;
  autoAnswer: ReturnType<typeof setTimeout> | null;
  closeNotification: (() => void) | null;
}

interface CallEnd {
  outcome: CallOutcome | null;
  durationSec: number | null;
  reason: string | null;
}

const incomingNoticeId = (callId: string) => `incoming-call-${callId}`;

/**
 * The Call Receiver (SPEC §4, CALLS.md signalling): listens for calls to the user's numbers while
 * the page is open, rings, answers with the microphone and the call's media socket, rejects, mutes
 * and hangs up. Leaving the page stops listening and ends whatever call it holds.
 */
export function useCallReceiver() {
  const realtime = useRealtime();
  const queryClient = useQueryClient();
  // Loaded with the page so Auto-Answer, notifications and Low Data Mode are known when a call rings.
  useQuery(preferencesQuery);
  const [listening, setListening] = useState(false);
  const [call, setCall] = useState<ReceivedCall | null>(null);
  const listeningRef = useRef(false);
  const live = useRef<LiveCall | null>(null);

  useRingtone(call?.phase === 'ringing');

  const readPreferences = useCallback(
    (): Preferences => queryClient.getQueryData(preferencesQuery.queryKey) ?? defaultPreferences,
    [queryClient],
  );

  const update = useCallback((current: LiveCall, changes: Partial<ReceivedCall>) => {
    current.call = { ...current.call, ...changes };
    setCall(current.call);
  }, []);

  /** Lets go of everything the call holds in this tab; what the server is told is up to whoever calls this. */
  const release = useCallback((current: LiveCall) => {
    if (live.current === current) live.current = null;
    if (current.autoAnswer) clearTimeout(current.autoAnswer);
    current.closeNotification?.();
    toast.dismiss(incomingNoticeId(current.call.callId));
    current.media?.close();
    if (!current.media && current.stream) for (const track of current.stream.getTracks()) track.stop();
    current.media = null;
    current.stream = null;
    setCall((shown) => (shown?.callId === current.call.callId ? null : shown));
  }, []);

  /** The call is over (call.ended, or the answer to our hang-up): say how it went. */
  const finish = useCallback(
    (callId: string, end: CallEnd) => {
      const current = live.current;
      if (!current || current.call.callId !== callId) return;
      release(current);
      void queryClient.invalidateQueries({ queryKey: callHistoryQuery.queryKey });
      const { from, answeredAt } = current.call;
      if (!current.answerSent) {
        // Never answered here: answered in another tab, or the caller gave up.
        if (end.outcome === 'completed') toast(end.reason ?? 'Answered in another tab');
        else toast('Missed call', { description: `From ${formatPhoneNumber(from)}` });
      } else if (end.outcome === 'failed') {
        toast.error('Call failed', { description: end.reason ?? 'The call was cut off' });
      } else {
        const durationSec = end.durationSec ?? (answeredAt === null ? 0 : Math.floor((Date.now() - answeredAt) / 1000));
        toast('Call ended', { description: `Duration: ${formatDuration(durationSec)}` });
      }
    },
    [queryClient, release],
  );

  /** The call cannot be taken here: it is declined (hung up once answered), so nothing is left half-open. */
  const abandon = useCallback(
    (current: LiveCall, title: string, description: string) => {
      if (current.answerSent) realtime?.send({ type: 'call.hangup', callId: current.call.callId });
      else realtime?.send({ type: 'call.reject', callId: current.call.callId });
      release(current);
      toast.error(title, { description });
    },
    [realtime, release],
  );

  const answer = useCallback(async () => {
    const current = live.current;
    if (!current || current.call.phase !== 'ringing' || !realtime) return;
    if (current.autoAnswer) clearTimeout(current.autoAnswer);
    current.autoAnswer = null;
    current.closeNotification?.();
    current.closeNotification = null;
    toast.dismiss(incomingNoticeId(current.call.callId));
    update(current, { phase: 'answering' });
    let stream: MediaStream;
    try {
      stream = await openMicrophone();
    } catch (error) {
      if (live.current !== current) return;
      // SPEC has no text for this: the call is declined and the notice says how to allow the microphone.
      const reason = error instanceof MicrophoneError ? error.message : 'The microphone could not be started.';
      abandon(current, 'Call rejected', reason);
      return;
    }
    if (live.current !== current) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    current.stream = stream;
    if (!realtime.send({ type: 'call.answer', callId: current.call.callId })) {
      abandon(current, 'Call failed', 'Voxline is not connected right now. Check your connection; the call may still ring in your other tabs.');
      return;
    }
    current.answerSent = true;
  }, [realtime, update, abandon]);

  /** The media socket closed and no call.ended came: read how the call ended, or end it if it has not. */
  const settleDrop = useCallback(
    async (callId: string) => {
      if (live.current?.call.callId !== callId) return;
      try {
        const record = await getCall(callId);
        if (record.state === 'ended') {
          finish(callId, record);
          return;
        }
        realtime?.send({ type: 'call.hangup', callId });
      } catch {
        // Nothing to read: the call is treated as cut off.
      }
      finish(callId, { outcome: 'failed', durationSec: null, reason: 'The call was cut off' });
    },
    [realtime, finish],
  );

  /** call.state answered: this tab has the call, so its audio connects (CALLS.md media). */
  const connectMedia = useCallback(
    async (current: LiveCall, answeredAt: string | undefined) => {
      const stream = current.stream;
      if (!stream || current.call.answeredAt !== null) return;
      update(current, { phase: 'active', answeredAt: answeredAt ? Date.parse(answeredAt) : Date.now() });
      toast.success('Call connected');
      const callId = current.call.callId;
      try {
        const media = await CallMedia.connect({
          mediaPath: mediaPathOf(callId),
          stream,
          // The server picks the rate from the same preference (Low Data Mode) when the call rings.
          sampleRate: readPreferences().dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE,
          // Signed out, the call ended on the server and nothing more can be asked of it.
          onDrop: (signedOut) => {
            if (signedOut) finish(callId, { outcome: 'completed', durationSec: null, reason: SIGNED_OUT_REASON });
            else setTimeout(() => void settleDrop(callId), MEDIA_DROP_GRACE_MS);
          },
        });
        if (live.current !== current) {
          media.close();
          return;
        }
        current.media = media;
        current.stream = null;
        if (current.call.isMuted) media.setMuted(true);
      } catch (error) {
        if (live.current !== current) return;
        // CallAudio.start has stopped the microphone already.
        current.stream = null;
        abandon(current, 'Call failed', (error as Error).message || 'The call audio could not start');
      }
    },
    [readPreferences, update, settleDrop, abandon, finish],
  );

  const ring = useCallback(
    (message: Extract<ServerMessage, { type: 'call.incoming' }>) => {
      // One call at a time; the server does not ring a user who is on a call (CALLS.md: busy).
      if (!listeningRef.current || live.current) return;
      const at = Date.parse(message.at);
      const current: LiveCall = {
        call: { callId: message.callId, from: message.from, timestamp: Number.isNaN(at) ? Date.now() : at, phase: 'ringing', answeredAt: null, isMuted: false },
        answerSent: false,
        stream: null,
        media: null,
        autoAnswer: null,
        closeNotification: null,
      };
      live.current = current;
      setCall(current.call);
      toast('Incoming call', { id: incomingNoticeId(message.callId), description: `From ${formatPhoneNumber(message.from)}`, duration: INCOMING_NOTICE_MS });
      const preferences = readPreferences();
      if (preferences.notifications) current.closeNotification = notifyIncomingCall(message.callId, message.from);
      if (preferences.autoAnswer) current.autoAnswer = setTimeout(() => void answer(), AUTO_ANSWER_DELAY_MS);
    },
    [readPreferences, answer],
  );

  useEffect(() => {
    if (!realtime) return;
    const unsubscribe = realtime.subscribe((message) => {
      if (message.type === 'call.incoming') {
        ring(message);
        return;
      }
      const current = live.current;
      if (!current) return;
      if (message.type === 'error') {
        // The only request of ours that can fail here is the answer, and a failed answer holds
        // nothing on the server (it may be another tab's call now).
        const aboutThisCall = message.callId === undefined || message.callId === current.call.callId;
        if (aboutThisCall && current.answerSent && current.call.answeredAt === null) {
          release(current);
          toast.error('Call failed', { description: message.message });
        }
        return;
      }
      if (!('callId' in message) || message.callId !== current.call.callId) return;
      if (message.type === 'call.state' && message.state === 'answered') void connectMedia(current, message.answeredAt);
      if (message.type === 'call.state' && message.state === 'ended') finish(message.callId, { outcome: message.outcome ?? null, durationSec: null, reason: message.reason ?? null });
      if (message.type === 'call.ended') finish(message.callId, { outcome: message.outcome, durationSec: message.durationSec, reason: message.reason ?? null });
    });
    // The call may have ended while the signalling socket was away.
    const unwatch = realtime.onConnect(() => {
      const current = live.current;
      if (!current) return;
      const { callId } = current.call;
      void getCall(callId).then((record) => (record.state === 'ended' ? finish(callId, record) : undefined), () => undefined);
    });
    return () => {
      unsubscribe();
      unwatch();
    };
  }, [realtime, ring, connectMedia, finish, release]);

  const startReceiving = useCallback(() => {
    if (!realtime) {
      toast.error('Error', { description: 'Voxline is not connected. Reload the page and try again.' });
      return;
    }
    // Sent even while the socket reconnects: the client sends it again once connected.
    realtime.send({ type: 'receiver.start' });
    listeningRef.current = true;
    setListening(true);
    toast('Ready to receive calls');
    if (readPreferences().notifications) askNotificationPermission();
  }, [realtime, readPreferences]);

  const stopReceiving = useCallback(() => {
    const current = live.current;
    if (current?.call.phase === 'ringing') {
      realtime?.send({ type: 'call.reject', callId: current.call.callId });
      release(current);
    }
    realtime?.send({ type: 'receiver.stop' });
    listeningRef.current = false;
    setListening(false);
    toast('Call receiving stopped');
  }, [realtime, release]);

  const reject = useCallback(() => {
    const current = live.current;
    if (!current || current.call.phase !== 'ringing') return;
    realtime?.send({ type: 'call.reject', callId: current.call.callId });
    release(current);
    toast('Call rejected');
  }, [realtime, release]);

  const hangUp = useCallback(async () => {
    const current = live.current;
    if (!current || current.call.phase === 'ringing') return;
    const { callId } = current.call;
    if (!current.answerSent) {
      // Still asking for the microphone: nothing was answered, so the call is declined.
      realtime?.send({ type: 'call.reject', callId });
      release(current);
      toast('Call rejected');
      return;
    }
    try {
      const record = await hangUpCall(callId);
      finish(callId, record.state === 'ended' ? record : { outcome: 'completed', durationSec: null, reason: null });
    } catch {
      realtime?.send({ type: 'call.hangup', callId });
      finish(callId, { outcome: 'completed', durationSec: null, reason: null });
    }
  }, [realtime, release, finish]);

  const toggleMute = useCallback(() => {
    const current = live.current;
    if (current?.call.phase !== 'active') return;
    const isMuted = !current.call.isMuted;
    // Before the audio has connected, connectMedia applies it.
    current.media?.setMuted(isMuted);
    realtime?.send({ type: 'call.mute', callId: current.call.callId, muted: isMuted });
    update(current, { isMuted });
    toast(isMuted ? 'Microphone muted' : 'Microphone unmuted');
  }, [realtime, update]);

  // SPEC §4: leaving the page turns listening off; a call ringing is declined and one in progress ends.
  useEffect(
    () => () => {
      const current = live.current;
      if (current) {
        if (current.answerSent) realtime?.send({ type: 'call.hangup', callId: current.call.callId });
        else realtime?.send({ type: 'call.reject', callId: current.call.callId });
        release(current);
      }
      if (listeningRef.current) {
        realtime?.send({ type: 'receiver.stop' });
        listeningRef.current = false;
      }
    },
    [realtime, release],
  );

  return { listening, call, startReceiving, stopReceiving, answer, reject, hangUp, toggleMute };
}

export type CallReceiver = ReturnType<typeof useCallReceiver>;
