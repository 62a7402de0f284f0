/** CALLS.md timing constants, in one place so tests can shorten them. */
export interface CallTiming {
  ringTimeoutMs: number;
  outsideAnswerDelayMs: number;
  echoDelayMs: number;
  /** How long a placed call waits for the caller's browser to connect its audio. */
  mediaConnectTimeoutMs: number;
}

export const defaultCallTiming: CallTiming = {
  ringTimeoutMs: 30_000,
  outsideAnswerDelayMs: 2_000,
  echoDelayMs: 300,
  mediaConnectTimeoutMs: 15_000,
};
