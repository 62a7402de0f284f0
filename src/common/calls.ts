/** The call model's shared constants (docs/calls.md): audio format, states and outcomes. */

export const WIDEBAND_RATE = 16_000;
/** Low Data Mode. */
export const NARROWBAND_RATE = 8_000;
export const FRAME_MS = 20;

export type CallSampleRate = typeof WIDEBAND_RATE | typeof NARROWBAND_RATE;

export function frameSamples(sampleRate: CallSampleRate): number {
  return (sampleRate / 1000) * FRAME_MS;
}

/** Bytes of one 20 ms frame of mono 16-bit PCM: 640 at 16 kHz, 320 at 8 kHz. */
export function frameBytes(sampleRate: CallSampleRate): number {
  return frameSamples(sampleRate) * 2;
}

/** The sound-test line: answers at once and plays back what it hears (docs/calls.md#routing, rule 1). */
export const DEFAULT_SOUND_TEST_NUMBER = '+14155550100';

export const callStates = ['dialing', 'ringing', 'answered', 'ended'] as const;
export type CallState = (typeof callStates)[number];

export const callOutcomes = ['completed', 'rejected', 'no-answer', 'busy', 'unavailable', 'failed', 'cancelled'] as const;
export type CallOutcome = (typeof callOutcomes)[number];

export const callDirections = ['outbound', 'inbound'] as const;
export type CallDirection = (typeof callDirections)[number];

/** docs/product.md §9: durations show as minutes:seconds with the seconds padded to two digits. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
