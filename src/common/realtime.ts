import { z } from 'zod/mini';
import { callOutcomes, callStates } from './calls';

/*
 * What the server sends a user's tabs on /api/v1/realtime (docs/calls.md#signalling), which both
 * ends parse. What the tabs send is in realtime-client-messages.ts: only the server parses it, and
 * the browser, importing its type alone, does not build its schema on every signed-in load.
 */

/** What a change in one tab or device may have touched, so every other open one reloads it (issue 19, multi-device sync). */
export const syncTopics = ['history', 'contacts', 'numbers', 'voice', 'preferences', 'voicemail', 'recordings', 'subscription', 'account'] as const;
export type SyncTopic = (typeof syncTopics)[number];

/** Messages the server sends to a user's tabs. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call.incoming'), callId: z.string(), from: z.string(), to: z.string(), at: z.string() }),
  z.object({
    type: z.literal('call.state'),
    callId: z.string(),
    state: z.enum(callStates),
    outcome: z.optional(z.enum(callOutcomes)),
    answeredAt: z.optional(z.string()),
    reason: z.optional(z.string()),
  }),
  z.object({ type: z.literal('call.ended'), callId: z.string(), outcome: z.enum(callOutcomes), durationSec: z.number(), reason: z.optional(z.string()) }),
  z.object({ type: z.literal('notice'), code: z.string(), message: z.string() }),
  /** The other side of the call pressed keys (touch-tones, docs/calls.md#touch-tones); callId is this user's record of the call. */
  z.object({ type: z.literal('call.dtmf'), callId: z.string(), digits: z.string() }),
  /** Answers receiver.start and receiver.stop once they hold on every instance: calls ring the tab from then on, or no longer. */
  z.object({ type: z.literal('receiver.state'), listening: z.boolean() }),
  /** A message of the tab's that failed; callId names the call it was about, when it was about one. */
  z.object({ type: z.literal('error'), code: z.string(), message: z.string(), callId: z.optional(z.string()) }),
  /** The server's SDP answer to a media.offer, its ICE candidates gathered in it. */
  z.object({ type: z.literal('media.answer'), callId: z.string(), sdp: z.string() }),
  /**
   * The server's side of the tab's WebRTC audio is up (ICE and DTLS) and joined to the call. The
   * tab's own 'connected' does not prove it: the browser ends its DTLS handshake before the server
   * does, and a server that never ends its side would leave the call silent.
   */
  z.object({ type: z.literal('media.connected'), callId: z.string() }),
  /**
   * This instance is draining (docs/deploy.md#draining): the tab reconnects, through the same
   * address, to another one, once it holds no call here. Also the answer to a receiver.start it refuses.
   */
  z.object({ type: z.literal('server.draining') }),
  /**
   * The call is being recorded, or no longer (issue 19): both sides are told. `byYou` says whether
   * this user started it; `startedAt` when the recording began, for the elapsed time.
   */
  z.object({ type: z.literal('call.recording'), callId: z.string(), recording: z.boolean(), byYou: z.boolean(), startedAt: z.optional(z.string()) }),
  /** A caller left a message (issue 19); every open tab of the owner shows it. */
  z.object({ type: z.literal('voicemail.new'), voicemailId: z.string(), from: z.string(), at: z.string() }),
  /** Something of the user's changed elsewhere: the tab reloads these (issue 19, multi-device sync). */
  z.object({ type: z.literal('sync'), topics: z.array(z.enum(syncTopics)) }),
]);

export type ServerMessage = z.infer<typeof serverMessageSchema>;
