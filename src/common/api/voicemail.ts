import { z } from 'zod/mini';

/** docs/product.md (issue 19): how long a caller may speak, and the greeting's limits. */
export const VOICEMAIL_MAX_MESSAGE_SEC = 120;
export const VOICEMAIL_GREETING_MAX_SEC = 30;
export const VOICEMAIL_GREETING_MAX_BYTES = 1_000_000;
/** The reason a call's `answered` state and record carry when voicemail took it (docs/calls.md#voicemail). */
export const VOICEMAIL_ANSWERED = 'Voicemail';
/** A call nobody answers within this goes to voicemail. */
export const VOICEMAIL_NO_ANSWER_SEC = 25;

/** Why a call went to voicemail. */
export type VoicemailReason = 'not_listening' | 'no_answer' | 'rejected' | 'busy';

/** One message as the owner's pages see it; its audio is at /api/v1/voicemail/:id/audio. */
export const voicemailSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  createdAt: z.string(),
  durationSec: z.int(),
  heard: z.boolean(),
  /** The owner's missed-call record this message belongs to, when it is still kept. */
  callId: z.nullable(z.string()),
  /** 'saved' plays; 'pending_upload' plays from the instance that wrote it; 'failed' has no audio. */
  state: z.enum(['recording', 'pending_upload', 'saved', 'failed']),
});

export const voicemailListSchema = z.object({
  voicemails: z.array(voicemailSchema),
  unheard: z.int(),
});

export const markVoicemailBodySchema = z.strictObject({
  heard: z.boolean({ error: 'heard must be true or false' }),
});

export const voicemailGreetingSchema = z.object({
  /** false: callers hear the default greeting shipped with the app. */
  custom: z.boolean(),
  durationSec: z.number(),
  updatedAt: z.nullable(z.string()),
});

export type Voicemail = z.infer<typeof voicemailSchema>;
export type VoicemailList = z.infer<typeof voicemailListSchema>;
export type VoicemailGreeting = z.infer<typeof voicemailGreetingSchema>;
