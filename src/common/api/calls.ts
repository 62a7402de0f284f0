import { z } from 'zod/mini';
import { callDirections, callOutcomes, callStates } from '../calls';
import { callMediaFiguresSchema } from '../call-quality';
import { mediaTransports } from '../media';
import { roundToVoiceStep, VOICE_RANGE, voiceTypes } from '../voice';
import { miniTextField } from './mini-text-field';

const e164 = z.string().check(z.regex(/^\+\d{6,15}$/, 'Enter the number in international form, e.g. +14155550100'));

export const placeCallBodySchema = z.strictObject({
  from: miniTextField('From', { required: 'No phone number available' }).check(z.minLength(1, 'No phone number available'), z.maxLength(20, 'No phone number available')),
  to: miniTextField('Phone number', { required: 'Phone number required' }).check(
    z.trim(),
    z.minLength(1, 'Phone number required'),
    z.maxLength(24, 'Phone number is too long'),
  ),
});

/** docs/product.md §5: 0.5 to 2 in steps of 0.1; stored rounded to the step. */
const voiceAmount = (name: string) =>
  z.pipe(
    z
      .number({ error: `${name} must be a number` })
      .check(
        z.gte(VOICE_RANGE.min, `${name} must be between ${VOICE_RANGE.min} and ${VOICE_RANGE.max}`),
        z.lte(VOICE_RANGE.max, `${name} must be between ${VOICE_RANGE.min} and ${VOICE_RANGE.max}`),
        z.refine((value) => Math.abs(value / VOICE_RANGE.step - Math.round(value / VOICE_RANGE.step)) < 1e-6, `${name} must be in steps of ${VOICE_RANGE.step}`),
      ),
    z.transform(roundToVoiceStep),
  );

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
  outcome: z.nullable(z.enum(callOutcomes)),
  reason: z.nullable(z.string()),
  startedAt: z.string(),
  answeredAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  durationSec: z.nullable(z.int()),
  /** How the user's audio travelled; null when it never connected (or for calls before it was kept). */
  mediaTransport: z.nullable(z.enum(mediaTransports)),
  /** What the browser measured of the call's audio (docs/calls.md#call-details); null until it reports, absent from a server released before it (a rolling upgrade). */
  mediaFigures: z.nullish(callMediaFiguresSchema),
  /** The voice the call used when it was not the normal voice; null or absent otherwise (and for inbound calls). */
  voice: z.nullish(z.object({ settings: z.object({ voiceType: z.enum(voiceTypes), pitch: z.number(), speed: z.number() }), contactName: z.nullable(z.string()) })),
  /** The message the caller left on this missed call (issue 19); null or absent when there is none. */
  voicemailId: z.nullish(z.string()),
  /** The recording of this call that can be played (saved, or waiting for the store); null or absent when there is none. */
  recordingId: z.nullish(z.string()),
});

export const placeCallResultSchema = z.object({
  call: callRecordSchema,
  /** Path of the call's media websocket, the fallback when WebRTC cannot connect (docs/calls.md#media). */
  mediaPath: z.string(),
  sampleRate: z.union([z.literal(16_000), z.literal(8_000)]),
  /** Why the caller's voice settings were set aside for the plan's normal voice, if they were. */
  voiceNotice: z.optional(z.string()),
  /** The delay the caller's voice changer adds to this call (ms); absent when it adds none. */
  voiceDelayMs: z.optional(z.number().check(z.gte(0))),
  /** The called contact's voice preset, when the call uses it (issue 20 item 5). */
  contactVoice: z.optional(z.object({ contactName: z.string(), settings: z.object({ voiceType: z.enum(voiceTypes), pitch: z.number(), speed: z.number() }) })),
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
  digits: miniTextField('Digits').check(
    z.minLength(1, 'Digits are required'),
    z.maxLength(MAX_DTMF_DIGITS, `Send at most ${MAX_DTMF_DIGITS} digits at once`),
    z.regex(/^[0-9*#]+$/, 'Digits may hold only 0-9, * and #'),
  ),
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
