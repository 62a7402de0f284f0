import { z } from 'zod/mini';
import { miniTextField } from './mini-text-field';

/** Issue 19: a recording's size ceiling, checked by tests on what the recorder writes. */
export const RECORDING_MAX_BYTES_PER_MINUTE = 250_000;

/** One call recording as its owner's pages see it; its audio is at /api/v1/recordings/:id/audio. */
const recordingSchema = z.object({
  id: z.string(),
  /** The owner's record of the call, when it is still kept. */
  callId: z.nullable(z.string()),
  startedAt: z.string(),
  durationSec: z.int(),
  bytes: z.int(),
  state: z.enum(['recording', 'pending_upload', 'saved', 'failed']),
});

export const recordingListSchema = z.object({ recordings: z.array(recordingSchema) });

/** Settings' "Storage used": recordings and voicemail together. */
export const storageUsageSchema = z.object({
  recordingsBytes: z.int(),
  voicemailBytes: z.int(),
});

export const recordingIdParamsSchema = z.object({ id: miniTextField('Recording id') });

/** `?download=1` asks for the file as an attachment rather than for playing in the page. */
export const recordingAudioQuerySchema = z.object({
  download: z.optional(z.pipe(miniTextField('download'), z.enum(['0', '1'], { error: 'download must be 1 (save the file) or 0 (play it)' }))),
});

export type Recording = z.infer<typeof recordingSchema>;
export type StorageUsage = z.infer<typeof storageUsageSchema>;

/** Why a `call.record` is refused: the `error` message's code (docs/calls.md#recording). */
export const recordingRefusalCodes = { planRequired: 'plan_required', notAnswered: 'not_answered' } as const;
export const RECORDING_PLAN_REQUIRED_MESSAGE = 'Call recording is part of Premium and Platinum.';
