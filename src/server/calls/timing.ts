import { VOICEMAIL_MAX_MESSAGE_SEC, VOICEMAIL_NO_ANSWER_SEC } from '../../common/api/voicemail';

/** The timing constants of docs/calls.md#timing, in one place so tests can shorten them. */
export interface CallTiming {
  ringTimeoutMs: number;
  outsideAnswerDelayMs: number;
  echoDelayMs: number;
  /** How long a placed call waits for the caller's browser to connect its audio. */
  mediaConnectTimeoutMs: number;
  /**
   * How long past the ring timeout a provider call waits for the provider's own no-answer event
   * before ending the call itself (the provider is told to give up at the ring timeout).
   */
  providerGraceMs: number;
  /** How often the virtual carrier considers placing a simulated call to each listening user. */
  simulatedIncomingPollMs: number;
  /** Ringing a Voxline user this long without an answer sends the call to their voicemail (when shorter than the ring timeout). */
  voicemailNoAnswerMs: number;
  /** How long a caller may speak after the voicemail's beep. */
  voicemailMaxMessageMs: number;
}

export const defaultCallTiming: CallTiming = {
  ringTimeoutMs: 30_000,
  outsideAnswerDelayMs: 2_000,
  echoDelayMs: 300,
  mediaConnectTimeoutMs: 15_000,
  providerGraceMs: 5_000,
  simulatedIncomingPollMs: 5_000,
  voicemailNoAnswerMs: VOICEMAIL_NO_ANSWER_SEC * 1000,
  voicemailMaxMessageMs: VOICEMAIL_MAX_MESSAGE_SEC * 1000,
};
