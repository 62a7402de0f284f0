import { z } from 'zod';
import { callDirections, callOutcomes, callStates } from '../calls';
import { callMediaFiguresSchema } from '../call-quality';
import { mediaTransports } from '../media';
import { roundToVoiceStep, VOICE_RANGE, voiceTypes } from '../voice';
import { textField } from './fields';

const e164 = z.string().regex(/^\+\d{6,15}$/, 'Enter the number in international form, e.g. +14155550100');

export const placeCallBodySchema = z.strictObject({
  from: textField('From', { required: 'No phone number available' }).min(1, 'No phone number available').max(20, 'No phone number available'),
  to: textField('Phone number', { required: 'Phone number required' })
    .trim()
    .min(1, 'Phone number required')
    .max(24, 'Phone number is too long'),
});

/** docs/product.md §5: 0.5 to 2 in steps of 0.1; stored rounded to the step. */
const voiceAmount = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .min(VOICE_RANGE.min, `${name} must be between ${VOICE_RANGE.min} and ${VOICE_RANGE.max}`)
    .max(VOICE_RANGE.max, `${name} must be between ${VOICE_RANGE.min} and ${VOICE_RANGE.max}`)
    .refine((value) => Math.abs(value / VOICE_RANGE.step - Math.round(value / VOICE_RANGE.step)) < 1e-6, `${name} must be in steps of ${VOICE_RANGE.step}`)
    .transform(roundToVoiceStep);

/** The caller's voice settings for a call (docs/product.md §3). */
export const voiceSettingsSchema = z.object(
  {
    voiceType: z.enum(voiceTypes, { error: `Voice type must be one of ${voiceTypes.join(', ')}` }),
    pitch: voiceAmount('Pitch'),
    speed: voiceAmount('Speed'),
  },
  { error: 'Voice settings must be an object with voiceType, pitch and speed' },
);

export const callRecordSchema = z.object({
  id: z.string(),
  direction: z.enum(callDirections),
  from: z.string(),
  to: z.string(),
  state: z.enum(callStates),
  outcome: z.enum(callOutcomes).nullable(),
  reason: z.string().nullable(),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationSec: z.number().int().nullable(),
  /** How the user's audio travelled; null when it never connected (or for calls before it was kept). */
  mediaTransport: z.enum(mediaTransports).nullable(),
  /** What the browser measured of the call's audio (docs/calls.md#call-details); null until it reports, absent from a server released before it (a rolling upgrade). */
  mediaFigures: callMediaFiguresSchema.nullish(),
  /** The voice the call used when it was not the normal voice; null or absent otherwise (and for inbound calls). */
  voice: z.object({ settings: z.object({ voiceType: z.enum(voiceTypes), pitch: z.number(), speed: z.number() }), contactName: z.string().nullable() }).nullish(),
  /** The message the caller left on this missed call (issue 19); null or absent when there is none. */
  voicemailId: z.string().nullish(),
  /** The recording of this call that can be played (saved, or waiting for the store); null or absent when there is none. */
  recordingId: z.string().nullish(),
});

export const placeCallResultSchema = z.object({
  call: callRecordSchema,
  /** Path of the call's media websocket, the fallback when WebRTC cannot connect (docs/calls.md#media). */
  mediaPath: z.string(),
  sampleRate: z.union([z.literal(16_000), z.literal(8_000)]),
  /** Why the caller's voice settings were set aside for the plan's normal voice, if they were. */
  voiceNotice: z.string().optional(),
  /** The delay the caller's voice changer adds to this call (ms); absent when it adds none. */
  voiceDelayMs: z.number().min(0).optional(),
  /** The called contact's voice preset, when the call uses it (issue 20 item 5). */
  contactVoice: z
    .object({ contactName: z.string(), settings: z.object({ voiceType: z.enum(voiceTypes), pitch: z.number(), speed: z.number() }) })
    .optional(),
});

/**
 * The code of the 503 that refuses a call placed on an instance that is draining
 * (docs/deploy.md#draining): the browser tries once more, and the balancer sends it to a ready instance.
 */
export const SERVER_DRAINING = 'server_draining';
/** Its Retry-After, and the browser's wait before that one more try: a balancer polling every few seconds has moved on by then. */
export const SERVER_DRAINING_RETRY_SEC = 2;

/**
 * The code of the 503 that refuses a call placed on an instance too busy for the caller's plan
 * (docs/operations.md#priority-reception): shown to the caller as it is, no automatic retry.
 */
export const SERVER_BUSY = 'server_busy';
export const SERVER_BUSY_MESSAGE = 'Voxline is busy, try again in a minute';
/** Its Retry-After: the calls of a busy instance end over minutes, not seconds. */
export const SERVER_BUSY_RETRY_SEC = 60;

/** docs/calls.md#touch-tones: the most keys one request sends, and the most that may wait to be played. */
export const MAX_DTMF_DIGITS = 20;

/** Touch-tones for the call in progress: only 0-9, * and #; the dialled number itself stays digits only. */
export const dtmfBodySchema = z.strictObject({
  digits: textField('Digits')
    .min(1, 'Digits are required')
    .max(MAX_DTMF_DIGITS, `Send at most ${MAX_DTMF_DIGITS} digits at once`)
    .regex(/^[0-9*#]+$/, 'Digits may hold only 0-9, * and #'),
});

export const dtmfResultSchema = z.object({
  digits: z.string(),
  /** How they reach the far side: played as tones into the call's audio, or handed to the phone network. */
  via: z.enum(['tones', 'provider']),
});

export const callHistorySchema = z.object({ calls: z.array(callRecordSchema) });

export const callLinesSchema = z.object({ soundTestNumber: e164 });

export type PlaceCallBody = z.infer<typeof placeCallBodySchema>;
export type CallRecord = z.infer<typeof callRecordSchema>;
export type PlaceCallResult = z.infer<typeof placeCallResultSchema>;
export type ContactVoice = NonNullable<PlaceCallResult['contactVoice']>;
export type DtmfResult = z.infer<typeof dtmfResultSchema>;
