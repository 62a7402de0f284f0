import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import type { CallRecord } from '../../common/api/calls';
import { formatDuration, type CallOutcome } from '../../common/calls';
import { openMicrophone } from '../audio/call-audio';
import { ApiError } from '../lib/api-client';
import { useRealtime } from '../lib/realtime';
import { callHistoryQuery } from './call-history-query';
import { CallMedia, SIGNED_OUT_REASON } from './call-media';
import { getCall } from './get-call';
import { hangUpCall } from './hang-up-call';
import { placeCall } from './place-call';

export type CallPhase = 'idle' | 'connecting' | 'ringing' | 'active';

/** SPEC §3 active call, as the active-call bar shows it. */
export interface ActiveCall {
  phase: CallPhase;
  callId: string | null;
  phoneNumber: string;
  countryCode: string;
  isMuted: boolean;
  answeredAt: number | null;
}

const idle: ActiveCall = { phase: 'idle', callId: null, phoneNumber: '', countryCode: '', isMuted: false, answeredAt: null };

const failureText: Partial<Record<CallOutcome, string>> = {
  busy: 'The line is busy',
  'no-answer': 'Nobody answered',
  unavailable: 'Nobody is taking calls on that number right now',
  rejected: 'The call was declined',
};

/** The caller's notice for a call that did not go through; the reason follows it. */
const failureTitle = (outcome: CallOutcome) => (outcome === 'rejected' ? 'Call rejected' : outcome === 'no-answer' ? 'No answer' : 'Call failed');

interface Connection {
  callId: string;
  media: CallMedia;
  /** When the far side answered (ms since the epoch); null while it has not. */
  answeredAt: number | null;
  muted: boolean;
}

export interface StartCall {
  from: string;
  /** E.164: the dial code joined with the digits (SPEC §5). */
  to: string;
  countryCode: string;
  voiceChanger?: boolean;
}

function signedOutEnd(callId: string, current: Connection | null): Pick<CallRecord, 'id' | 'outcome' | 'durationSec' | 'reason'> {
  const answeredAt = current?.callId === callId ? current.answeredAt : null;
  return {
    id: callId,
    outcome: answeredAt === null ? 'cancelled' : 'completed',
    durationSec: answeredAt === null ? 0 : Math.floor((Date.now() - answeredAt) / 1000),
    reason: SIGNED_OUT_REASON,
  };
}

/** One outbound call at a time: places it, carries its audio, follows its state, ends it cleanly. */
export function useOutboundCall() {
  const realtime = useRealtime();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [call, setCall] = useState<ActiveCall>(idle);
  const connection = useRef<Connection | null>(null);
  const starting = useRef(false);

  const finish = useCallback(
    (record: Pick<CallRecord, 'id' | 'outcome' | 'durationSec' | 'reason'>) => {
      const current = connection.current;
      if (!current || current.callId !== record.id) return;
      connection.current = null;
      current.media.close();
      setCall(idle);
      void queryClient.invalidateQueries({ queryKey: callHistoryQuery.queryKey });
      const outcome = record.outcome ?? 'completed';
      if (outcome === 'completed' || outcome === 'cancelled') {
        toast('Call ended', { description: `Duration: ${formatDuration(record.durationSec ?? 0)}` });
      } else {
        toast.error(failureTitle(outcome), { description: record.reason ?? failureText[outcome] ?? 'Failed to initiate call' });
      }
    },
    [queryClient],
  );

  const markAnswered = useCallback((callId: string, answeredAt: string | null) => {
    const current = connection.current;
    if (!current || current.callId !== callId || current.answeredAt !== null) return;
    const at = answeredAt ? Date.parse(answeredAt) : Date.now();
    current.answeredAt = at;
    toast.success('Call connected');
    setCall((state) => ({ ...state, phase: 'active', answeredAt: at }));
  }, []);

  useEffect(() => {
    if (!realtime) return;
    const unsubscribe = realtime.subscribe((message) => {
      // The server's word on the call in progress, such as the voice changer failing closed.
      if (message.type === 'notice') toast.warning(message.message);
      const current = connection.current;
      if (!current || !('callId' in message) || message.callId !== current.callId) return;
      if (message.type === 'call.state' && message.state === 'answered') markAnswered(message.callId, message.answeredAt ?? null);
      if (message.type === 'call.state' && message.state === 'ringing') setCall((c) => (c.callId === message.callId ? { ...c, phase: 'ringing' } : c));
      if (message.type === 'call.ended') finish({ id: message.callId, outcome: message.outcome, durationSec: message.durationSec, reason: message.reason ?? null });
    });
    // After a reconnection, ask where the call stands: a message may have been missed meanwhile.
    const unwatch = realtime.onConnect(() => {
      const current = connection.current;
      if (current) void getCall(current.callId).then((record) => (record.state === 'ended' ? finish(record) : undefined), () => undefined);
    });
    return () => {
      unsubscribe();
      unwatch();
    };
  }, [realtime, finish, markAnswered]);

  const start = useCallback(
    async ({ from, to, countryCode, voiceChanger = false }: StartCall) => {
      if (connection.current || starting.current) {
        toast.error('Call in progress', { description: 'Please end the current call before starting a new one' });
        return;
      }
      starting.current = true;
      setCall({ ...idle, phase: 'connecting', phoneNumber: to, countryCode });
      toast(voiceChanger ? 'Calling with voice changer...' : 'Calling...');
      let stream: MediaStream | null = null;
      let placedId: string | null = null;
      try {
        // The microphone first: if it is refused, no call is placed at all.
        stream = await openMicrophone();
        const placed = await placeCall({ from, to });
        const { call: record } = placed;
        if (placed.voiceNotice) toast.warning(placed.voiceNotice);
        if (record.state === 'ended') {
          for (const track of stream.getTracks()) track.stop();
          setCall(idle);
          const outcome = record.outcome ?? 'failed';
          toast.error(failureTitle(outcome), { description: record.reason ?? failureText[outcome] ?? 'Failed to initiate call' });
          return;
        }
        placedId = record.id;
        const media = await CallMedia.connect({
          mediaPath: placed.mediaPath,
          stream,
          sampleRate: placed.sampleRate,
          // The server ends the call when its audio drops; read the outcome it recorded. Once
          // signed out there is nothing to read: the server ended it as a hang-up.
          onDrop: (signedOut) => {
            if (signedOut) finish(signedOutEnd(record.id, connection.current));
            else void getCall(record.id).then(finish, () => finish({ id: record.id, outcome: 'failed', durationSec: 0, reason: 'The call was cut off' }));
          },
        });
        stream = null;
        connection.current = { callId: record.id, media, answeredAt: null, muted: false };
        setCall((current) => ({ ...current, callId: record.id, phase: record.state === 'ringing' ? 'ringing' : current.phase }));
        if (record.state === 'answered') markAnswered(record.id, record.answeredAt);
      } catch (error) {
        if (stream) for (const track of stream.getTracks()) track.stop();
        // A call placed whose audio could not start is hung up rather than left ringing.
        if (placedId) void hangUpCall(placedId).catch(() => undefined);
        setCall(idle);
        if (error instanceof ApiError && error.status === 401) toast.error('Authentication required', { description: 'Please log in to make calls' });
        else if (error instanceof ApiError && error.code === 'call_in_progress') toast.error('Call in progress', { description: error.message });
        else if (error instanceof ApiError && error.code === 'minutes_used_up') {
          toast.error('Monthly minutes used up', {
            description: 'Upgrade your plan for more minutes this month.',
            action: { label: 'Upgrade', onClick: () => void navigate('/settings?tab=subscription') },
          });
        }
        else toast.error('Call failed', { description: (error as Error).message || 'Failed to initiate call' });
      } finally {
        starting.current = false;
      }
    },
    [finish, markAnswered, navigate],
  );

  const hangUp = useCallback(async () => {
    const current = connection.current;
    if (!current) return;
    try {
      finish(await hangUpCall(current.callId));
    } catch {
      finish({ id: current.callId, outcome: 'completed', durationSec: 0, reason: null });
    }
  }, [finish]);

  const toggleMute = useCallback(() => {
    const current = connection.current;
    if (!current) return;
    current.muted = !current.muted;
    const isMuted = current.muted;
    current.media.setMuted(isMuted);
    realtime?.send({ type: 'call.mute', callId: current.callId, muted: isMuted });
    toast(isMuted ? 'Microphone muted' : 'Microphone unmuted');
    setCall((state) => ({ ...state, isMuted }));
  }, [realtime]);

  // Leaving the page ends the call rather than leaving it open on the server.
  useEffect(
    () => () => {
      const current = connection.current;
      if (current) {
        connection.current = null;
        current.media.close();
      }
    },
    [],
  );

  return { call, start, hangUp, toggleMute };
}
