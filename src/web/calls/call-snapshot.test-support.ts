import { idleSnapshot, type CallSnapshot } from './call-snapshot';

/** When answeredCall was answered. */
export const answeredAt = Date.parse('2026-11-22T10:00:00.000Z');

/** An outbound call to a US number, answered and up: what the call's controls are tested on. */
export const answeredCall: CallSnapshot = Object.freeze({
  ...idleSnapshot,
  phase: 'active',
  direction: 'outbound',
  callId: 'c1',
  peer: '+14155550100',
  countryCode: '+1',
  answeredAt,
});
