import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkIncomingCallsPayloadSchema,
  initiateCallPayloadSchema,
  initiateCallWithVoiceChangePayloadSchema,
  listUserNumbersPayloadSchema,
  provisionNumberPayloadSchema,
  searchNumbersPayloadSchema,
  vonagePhoneRequestSchema,
  vonagePhoneResultSchema,
  type VonagePhoneResult,
} from '../../common/api/vonage-phone';
import type { OwnedNumber } from '../../common/api/numbers';
import { requireUser } from '../auth/current-user';
import { listRingingCalls } from '../calls/call-records';
import type { CallService } from '../calls/call-service';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { readPayload } from '../http/read-payload';
import { fromMsisdn, toMsisdn } from '../providers/telephony/vonage/msisdn';
import { numberLimits, type NumbersRouteOptions } from './routes';
import { listNumbers, listNumbersAsRouted, rentNumber, searchAvailableNumbers } from './service';

/** The seed's userId must be the session's own: a client cannot act for someone else. */
function checkUserId(userId: string | undefined, sessionUserId: string) {
  if (userId !== undefined && userId !== sessionUserId) {
    throw new AppError(403, 'forbidden', 'You can only manage your own phone numbers', 'payload.userId');
  }
}

/**
 * The numbers to check, in E.164: those named, each of which must be the user's own (a number that
 * is not answers 403 whether someone else rents it or nobody does), or all the user's numbers.
 */
async function ownNumbersToCheck(db: Database, userId: string, named: string[] | undefined): Promise<string[]> {
  const own = new Set((await listNumbers(db, userId)).map((number) => number.phoneNumber));
  if (named === undefined) return [...own];
  const numbers = named.map(fromMsisdn);
  const index = numbers.findIndex((number) => !own.has(number));
  if (index !== -1) throw new AppError(403, 'forbidden', 'You can only check calls to your own phone numbers', `payload.userNumbers.${index}`);
  return numbers;
}

/** The numbers service names the number 'phoneNumber'; in this route's payload it is 'msisdn'. */
async function withMsisdnField<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.field === 'phoneNumber') throw new AppError(error.statusCode, error.code, error.message, 'msisdn', { cause: error });
    throw error;
  }
}

const toCompatNumber = (number: OwnedNumber) => ({
  id: number.id,
  phone_number: number.phoneNumber,
  friendly_name: number.friendlyName,
  active: number.active,
});

/**
 * docs/product.md §7's backend function 'vonage-phone' as a compatibility route (docs/architecture.md#compatibility-routes) over the
 * numbers service and the call engine.
 */
export const vonagePhoneRoutes: FastifyPluginAsyncZod<NumbersRouteOptions & { calls: CallService }> = async (app, { auth, db, telephony, rateLimiter, calls }) => {
  app.post('/vonage-phone', { schema: { body: vonagePhoneRequestSchema, response: { 200: vonagePhoneResultSchema } } }, async (request, reply): Promise<VonagePhoneResult> => {
    const user = await requireUser(auth, request, reply);
    const context = { db, telephony, log: request.log };
    const { action, payload } = request.body;
    switch (action) {
      case 'searchNumbers': {
        const { country, pattern } = readPayload(searchNumbersPayloadSchema, payload);
        await rateLimiter.hit(`numbers-search:user:${user.id}`, numberLimits.searchPerUser);
        const numbers = await searchAvailableNumbers(context, { country, pattern });
        return { numbers: numbers.map(({ phoneNumber, cost, country: numberCountry, currency }) => ({ msisdn: toMsisdn(phoneNumber), cost, country: numberCountry, currency })) };
      }
      case 'provisionNumber': {
        const { country, msisdn, userId, friendlyName } = readPayload(provisionNumberPayloadSchema, payload);
        checkUserId(userId, user.id);
        await rateLimiter.hit(`numbers-rent:user:${user.id}`, numberLimits.rentPerUser);
        const number = await withMsisdnField(rentNumber(context, user.id, { country, phoneNumber: fromMsisdn(msisdn), friendlyName }));
        return { success: true as const, number: toCompatNumber(number) };
      }
      case 'listUserNumbers': {
        const { userId } = readPayload(listUserNumbersPayloadSchema, payload);
        checkUserId(userId, user.id);
        return { numbers: (await listNumbersAsRouted(context, user.id)).map(toCompatNumber) };
      }
      case 'checkIncomingCalls': {
        const { userNumbers, userId } = readPayload(checkIncomingCallsPayloadSchema, payload);
        checkUserId(userId, user.id);
        const ringing = await listRingingCalls(db, user.id, await ownNumbersToCheck(db, user.id, userNumbers));
        return {
          calls: ringing.map((call) => ({ id: call.id, from_number: call.fromNumber, to_number: call.toNumber, status: 'ringing' as const, started_at: call.startedAt.toISOString() })),
        };
      }
      // The prototype dialled with or without the '+' (Vonage's msisdn form); the app takes E.164 only.
      case 'initiateCall': {
        const { from, to } = readPayload(initiateCallPayloadSchema, payload);
        return calls.place(user, { from, to: fromMsisdn(to) });
      }
      case 'initiateCallWithVoiceChange': {
        const { voiceSettings, from, to } = readPayload(initiateCallWithVoiceChangePayloadSchema, payload);
        return calls.place(user, { from, to: fromMsisdn(to) }, { voiceSettings });
      }
      default:
        throw new AppError(400, 'unknown_action', 'Unknown action', 'action');
    }
  });
};
