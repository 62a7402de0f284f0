import { z } from 'zod';
import { callDirections, callOutcomes, callStates } from '../calls';
import { mediaTransports } from '../media';
import { paidPlans } from '../plans';
import { paymentStatuses } from './payments';
import { textField } from './fields';

/** Counted by the media bridge of the instance holding the call, since its two legs joined. */
const liveMediaFiguresSchema = z.object({
  /** Frames taken from the two sides, 20 ms each. */
  framesIn: z.number().int(),
  /** Frames given to the two sides (after any change of rate). */
  framesOut: z.number().int(),
  /** Frames made up by WebRTC legs for packets that never came. */
  concealedFrames: z.number().int(),
});

/** One conversation in progress: both participants' records of it seen as one call. */
const adminLiveCallSchema = z.object({
  /** The record to end it by: the caller's, or the callee's when the caller is outside Voxline. */
  id: z.string(),
  /** outbound: a Voxline user called; inbound: a call from outside Voxline rang a user. */
  direction: z.enum(callDirections),
  from: z.string(),
  to: z.string(),
  /** Null when that side is outside Voxline (the phone network, the sound-test line). */
  callerEmail: z.string().nullable(),
  calleeEmail: z.string().nullable(),
  state: z.enum(callStates),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  /** Whole seconds since the call started. */
  elapsedSec: z.number().int(),
  /** How the first participant's browser audio travels, once connected. */
  mediaTransport: z.enum(mediaTransports).nullable(),
  instanceId: z.string().nullable(),
  /** Null before the legs join, or when the instance holding the call did not answer in time. */
  media: liveMediaFiguresSchema.nullable(),
});

export const adminLiveCallsSchema = z.object({ calls: z.array(adminLiveCallSchema) });

const instanceStates = ['running', 'draining', 'stopped'] as const;

const adminInstanceSchema = z.object({
  id: z.string(),
  /** running; draining once SIGTERM came (it takes no new calls); stopped when its heartbeat went quiet. */
  state: z.enum(instanceStates),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  drainingSince: z.string().nullable(),
  /** Calls in progress whose records it holds. */
  calls: z.number().int(),
});

export const adminInstancesSchema = z.object({ instances: z.array(adminInstanceSchema) });

const adminPaymentSchema = z.object({
  reference: z.string(),
  email: z.string(),
  plan: z.enum(paidPlans),
  /** The plan's price in cents, and what was charged in minor units of `currency`. */
  amountUsdMinor: z.number().int(),
  amountMinor: z.number().int(),
  currency: z.string(),
  /** `pending` until a verification heard from the provider. */
  status: z.union([z.enum(paymentStatuses), z.literal('pending')]),
  createdAt: z.string(),
});

export const adminPaymentsSchema = z.object({ payments: z.array(adminPaymentSchema) });

export const adminCallParamsSchema = z.object({ callId: textField('Call id') });

export const adminEndedCallSchema = z.object({
  id: z.string(),
  outcome: z.enum(callOutcomes),
  reason: z.string(),
});

export type LiveMediaFigures = z.infer<typeof liveMediaFiguresSchema>;
export type AdminLiveCall = z.infer<typeof adminLiveCallSchema>;
export type AdminInstance = z.infer<typeof adminInstanceSchema>;
export type AdminPayment = z.infer<typeof adminPaymentSchema>;
