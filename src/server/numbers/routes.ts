import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../common/api/auth';
import {
  availableNumbersSchema,
  numberIdParamsSchema,
  numbersListSchema,
  ownedNumberSchema,
  renameNumberBodySchema,
  rentNumberBodySchema,
  searchNumbersQuerySchema,
} from '../../common/api/numbers';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import type { RateLimiter } from '../http/rate-limiter';
import type { TelephonyProvider } from '../providers/telephony/telephony-provider';
import { listNumbersAsRouted, numberLimit, releaseNumber, renameNumber, rentNumber, searchAvailableNumbers, type NumbersContext } from './service';

const MINUTE = 60_000;
// Searches and rentals reach a paid provider under TELEPHONY=vonage.
export const numberLimits = {
  searchPerUser: { limit: 30, windowMs: MINUTE },
  rentPerUser: { limit: 20, windowMs: 60 * MINUTE },
};

export interface NumbersRouteOptions {
  auth: Auth;
  db: Database;
  telephony: TelephonyProvider;
  rateLimiter: RateLimiter;
}

export const numbersRoutes: FastifyPluginAsyncZod<NumbersRouteOptions> = async (app, { auth, db, telephony, rateLimiter }) => {
  const context = (request: FastifyRequest): NumbersContext => ({ db, telephony, log: request.log });

  app.get('/numbers/available', { schema: { querystring: searchNumbersQuerySchema, response: { 200: availableNumbersSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await rateLimiter.hit(`numbers-search:user:${user.id}`, numberLimits.searchPerUser);
    return { numbers: await searchAvailableNumbers(context(request), request.query) };
  });

  app.get('/numbers', { schema: { response: { 200: numbersListSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const [numbers, limit] = await Promise.all([listNumbersAsRouted(context(request), user.id), numberLimit(db, user.id)]);
    return { numbers, limit };
  });

  app.post('/numbers', { config: { sync: ['numbers'] }, schema: { body: rentNumberBodySchema, response: { 201: ownedNumberSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await rateLimiter.hit(`numbers-rent:user:${user.id}`, numberLimits.rentPerUser);
    return reply.code(201).send(await rentNumber(context(request), user.id, request.body));
  });

  app.patch(
    '/numbers/:id',
    { config: { sync: ['numbers'] }, schema: { params: numberIdParamsSchema, body: renameNumberBodySchema, response: { 200: ownedNumberSchema } } },
    async (request, reply) => {
      const user = await requireUser(auth, request, reply);
      return renameNumber(db, user.id, request.params.id, request.body.friendlyName);
    },
  );

  app.delete('/numbers/:id', { config: { sync: ['numbers'] }, schema: { params: numberIdParamsSchema, response: { 200: okSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await releaseNumber(context(request), user.id, request.params.id);
    return { ok: true as const };
  });
};
