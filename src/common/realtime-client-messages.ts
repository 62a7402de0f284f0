import { z } from 'zod/mini';
import { miniTextField } from './api/mini-text-field';

/*
 * What a tab sends on /api/v1/realtime (docs/calls.md#signalling). Only the server parses it; the
 * browser imports the type alone (src/web/lib/realtime.tsx), so its schema is not built there.
 */

const callIdField = miniTextField('callId');
/** More than any jitter buffer holds. */
const MAX_BUFFERED_MS = 10_000;
/** An audio-only offer is 2–6 kB; this leaves room for many candidates and nothing more. */
const MAX_SDP_LENGTH = 20_000;
/** Controls but the tab and SDP's CRLF line ends (RFC 8866 §5). */
const SDP_CONTROLS = /(?![\t\r\n])[\p{Cc}\u2028\u2029]/u;
const sdpField = z
  .string({ error: 'SDP must be text' })
  .check(
    z.minLength(1, 'SDP is required'),
    z.maxLength(MAX_SDP_LENGTH, 'SDP is too long'),
    z.refine((value) => !SDP_CONTROLS.test(value), 'SDP must not contain control characters'),
  );

/** Messages a tab sends. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('receiver.start') }),
  z.object({ type: z.literal('receiver.stop') }),
  z.object({ type: z.literal('call.answer'), callId: callIdField }),
  z.object({ type: z.literal('call.reject'), callId: callIdField }),
  z.object({ type: z.literal('call.hangup'), callId: callIdField }),
  z.object({ type: z.literal('call.mute'), callId: callIdField, muted: z.boolean() }),
  /** The call's audio over WebRTC: the browser's SDP offer, its ICE candidates gathered in it. */
  z.object({ type: z.literal('media.offer'), callId: callIdField, sdp: sdpField }),
  /** Starts or stops recording the call (Premium and Platinum, issue 19). */
  z.object({ type: z.literal('call.record'), callId: callIdField, recording: z.boolean() }),
  /**
   * The tab plays its WebRTC audio `bufferedMs` later than its link now needs (after a bad stretch):
   * the server starts its stream afresh at a quiet moment (docs/calls.md#catching-up).
   */
  z.object({
    type: z.literal('media.catchUp'),
    callId: callIdField,
    bufferedMs: z.number({ error: 'bufferedMs must be a number' }).check(z.int('bufferedMs must be a whole number of milliseconds'), z.minimum(0, 'bufferedMs must not be negative'), z.maximum(MAX_BUFFERED_MS, `bufferedMs must be at most ${MAX_BUFFERED_MS}`)),
  }),
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;
