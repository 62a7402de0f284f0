import type { ContactVoice } from '../../common/api/calls';
import type { CallDirection } from '../../common/calls';
import type { MediaTransport } from '../../common/media';
import type { CallMediaLink } from './call-media-link';

/**
 * Where the call in this tab stands. Placed: connecting (microphone, placing, audio) → ringing →
 * active. Received: ringing (here) → answering (microphone, answer sent) → active.
 */
type CallPhase = 'idle' | 'connecting' | 'ringing' | 'answering' | 'active';

/** What the page shows of a CallSession; a new object on every change, never mutated. */
export interface CallSnapshot {
  /** Calls to the user's numbers ring this session (the Call Receiver is on). */
  listening: boolean;
  phase: CallPhase;
  direction: CallDirection | null;
  /** Null while the call's controls cannot act yet (a placed call until its audio connects). */
  callId: string | null;
  /** The other side in E.164: the number called, or the caller. */
  peer: string;
  /** The dial code the number was called with, e.g. `+1`; empty for a received call. */
  countryCode: string;
  isMuted: boolean;
  /** When the call was answered (ms since the epoch), as the server recorded it; null until then. */
  answeredAt: number | null;
  /** How the call's audio travels; null until it connects. */
  mediaTransport: MediaTransport | null;
  /** The keys the other side has pressed during the call (touch-tones), oldest first. */
  keysHeard: string;
  /** The called contact's voice preset, when the call uses it. */
  contactVoice: ContactVoice | null;
  /** When this user's recording of the call began (ms since the epoch); null while they do not record it. */
  recordingSince: number | null;
  /** The other side is recording the call (docs/calls.md#recording). */
  recordedByOther: boolean;
  /** The callee's voicemail answered this placed call (docs/calls.md#voicemail). */
  voicemail: boolean;
}

export const idleSnapshot: CallSnapshot = Object.freeze({
  listening: false,
  phase: 'idle',
  direction: null,
  callId: null,
  peer: '',
  countryCode: '',
  isMuted: false,
  answeredAt: null,
  mediaTransport: null,
  keysHeard: '',
  contactVoice: null,
  recordingSince: null,
  recordedByOther: false,
  voicemail: false,
});

/** The call this session holds and what it holds open for it. */
export interface LiveCall {
  direction: CallDirection;
  phase: Exclude<CallPhase, 'idle'>;
  /** Null while a placed call has not been created yet. */
  callId: string | null;
  peer: string;
  countryCode: string;
  muted: boolean;
  answeredAt: number | null;
  /** A received call: call.answer has gone out; an `error` until call.state answered means it failed. */
  answerSent: boolean;
  /** The microphone, until the media connection takes it over. */
  stream: MediaStream | null;
  media: CallMediaLink | null;
  cancelAutoAnswer: (() => void) | null;
  closeNotification: (() => void) | null;
  keysHeard: string;
  contactVoice: ContactVoice | null;
  /** The delay this side's voice changer adds (ms): set by placing; a received call's voice is not changed. */
  voiceDelayMs: number;
  recordingSince: number | null;
  recordedByOther: boolean;
  voicemail: boolean;
}

export function newLiveCall(direction: CallDirection, fields: Pick<LiveCall, 'phase' | 'callId' | 'peer' | 'countryCode'>): LiveCall {
  return { direction, ...fields, muted: false, answeredAt: null, answerSent: false, stream: null, media: null, cancelAutoAnswer: null, closeNotification: null, keysHeard: '', contactVoice: null, voiceDelayMs: 0, recordingSince: null, recordedByOther: false, voicemail: false };
}

export function snapshotOf(call: LiveCall | null, listening: boolean): CallSnapshot {
  if (!call) return Object.freeze({ ...idleSnapshot, listening });
  // A placed call's controls wait for its audio, as they always have: mute and hang-up act on it.
  const controllable = call.direction === 'inbound' || call.media !== null;
  return Object.freeze({
    listening,
    phase: call.phase,
    direction: call.direction,
    callId: controllable ? call.callId : null,
    peer: call.peer,
    countryCode: call.countryCode,
    isMuted: call.muted,
    answeredAt: call.answeredAt,
    mediaTransport: call.media?.transport ?? null,
    keysHeard: call.keysHeard,
    contactVoice: call.contactVoice,
    recordingSince: call.recordingSince,
    recordedByOther: call.recordedByOther,
    voicemail: call.voicemail,
  });
}
