import { z } from 'zod';
import { textField } from './api/fields';
import { callOutcomes, callStates } from './calls';

const callIdField = textField('callId');

/** Messages a tab sends on /api/v1/realtime (docs/calls.md#signalling). */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('receiver.start') }),
  z.object({ type: z.literal('receiver.stop') }),
  z.object({ type: z.literal('call.answer'), callId: callIdField }),
  z.object({ type: z.literal('call.reject'), callId: callIdField }),
  z.object({ type: z.literal('call.hangup'), callId: callIdField }),
  z.object({ type: z.literal('call.mute'), callId: callIdField, muted: z.boolean() }),
]);

/** Messages the server sends to a user's tabs. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call.incoming'), callId: z.string(), from: z.string(), to: z.string(), at: z.string() }),
  z.object({
    type: z.literal('call.state'),
    callId: z.string(),
    state: z.enum(callStates),
    outcome: z.enum(callOutcomes).optional(),
    answeredAt: z.string().optional(),
    reason: z.string().optional(),
  }),
  z.object({ type: z.literal('call.ended'), callId: z.string(), outcome: z.enum(callOutcomes), durationSec: z.number(), reason: z.string().optional() }),
  z.object({ type: z.literal('notice'), code: z.string(), message: z.string() }),
  /** Answers receiver.start and receiver.stop once they hold on every instance: calls ring the tab from then on, or no longer. */
  z.object({ type: z.literal('receiver.state'), listening: z.boolean() }),
  /** A message of the tab's that failed; callId names the call it was about, when it was about one. */
  z.object({ type: z.literal('error'), code: z.string(), message: z.string(), callId: z.string().optional() }),
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ServerMessage = z.infer<typeof serverMessageSchema>;
