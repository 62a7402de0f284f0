import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
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
import type { CallService } from '../calls/call-service';
import { AppError } from '../http/app-error';
import { numberLimits, type NumbersRouteOptions } from './routes';
import { listNumbers, rentNumber, searchAvailableNumbers } from './service';

/** A payload read with its action's schema; a bad one is a 400 naming the field, as on /api/v1. */
function readPayload<T extends z.ZodType>(schema: T, payload: unknown): z.output<T> {
  const result = schema.safeParse(payload ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = ['payload', ...issue.path.map(String)].join('.');
  throw AppError.badRequest(`${field}: ${issue.message}`, field);
}

/** The seed's userId must be the session's own: a client cannot act for someone else. */
function checkUserId(userId: string | undefined, sessionUserId: string) {
  if (userId !== undefined && userId !== sessionUserId) {
    throw new AppError(403, 'forbidden', 'You can only manage your own phone numbers', 'payload.userId');
  }
}

const toCompatNumber = (number: OwnedNumber) => ({
  id: number.id,
  phone_number: number.phoneNumber,
  friendly_name: number.friendlyName,
  active: number.active,
});

/**
 * SPEC §7's backend function 'vonage-phone' as a compatibility route (DESIGN.md §3) over the
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
        return { numbers: numbers.map(({ msisdn, cost, country: numberCountry, currency }) => ({ msisdn, cost, country: numberCountry, currency })) };
      }
      case 'provisionNumber': {
        const { country, msisdn, userId, friendlyName } = readPayload(provisionNumberPayloadSchema, payload);
        checkUserId(userId, user.id);
        await rateLimiter.hit(`numbers-rent:user:${user.id}`, numberLimits.rentPerUser);
        const number = await rentNumber(context, user.id, { country, msisdn, friendlyName });
        return { success: true as const, number: toCompatNumber(number) };
      }
      case 'listUserNumbers': {
        const { userId } = readPayload(listUserNumbersPayloadSchema, payload);
        checkUserId(userId, user.id);
        return { numbers: (await listNumbers(db, user.id)).map(toCompatNumber) };
      }
      case 'initiateCall':
        return calls.place(user, readPayload(initiateCallPayloadSchema, payload));
      case 'initiateCallWithVoiceChange': {
        const { voiceSettings, ...body } = readPayload(initiateCallWithVoiceChangePayloadSchema, payload);
        return calls.place(user, body, { voiceSettings });
      }
      default:
        throw new AppError(400, 'unknown_action', 'Unknown action', 'action');
    }
  });
};
