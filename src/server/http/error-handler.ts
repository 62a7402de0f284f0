import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '../../common/api/errors';
import { isRedisUnavailable } from '../redis/redis-errors';
import { AppError } from './app-error';
import { pathForLog } from './request-log';

// Connection-level failures of PostgreSQL (node-postgres and server SQLSTATE classes 08 and 57P).
const DATABASE_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

function isDatabaseDown(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && DATABASE_DOWN_CODES.has(code)) return true;
    if (current.message.includes('Connection terminated') || current.message.includes('timeout exceeded when trying to connect')) return true;
  }
  return false;
}

export function sendError(reply: FastifyReply, status: number, body: ApiErrorBody['error']) {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: body } satisfies ApiErrorBody);
}

/** The HTTP status and error body a failure answers with. */
export function toApiError(error: FastifyError | AppError | Error): { status: number; body: ApiErrorBody['error'] } {
  // Before AppError: a rate limit that could not reach Redis wraps that failure in one, and every
  // path that met Redis away should answer alike.
  if (isRedisUnavailable(error)) {
    return { status: 503, body: { code: 'redis_unavailable', message: 'The shared store (Redis) is unavailable right now. Please try again shortly.' } };
  }
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) },
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0]!;
    const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
    return { status: 400, body: { code: 'invalid_input', message: `${field}: ${first.message}`, field } };
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { code: 'invalid_json', message: 'The request body is not valid JSON' } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { code: 'invalid_json', message: 'The request body is empty but its content type says JSON' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { code: 'body_too_large', message: 'The request body is too large' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { code: 'unsupported_media_type', message: 'Send the request body as application/json' } };
  }
  if (isDatabaseDown(error)) {
    return { status: 503, body: { code: 'database_unavailable', message: 'The database is unavailable right now. Please try again shortly.' } };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { code: status === 429 ? 'rate_limited' : 'bad_request', message: fastifyError.message } };
  }
  return { status: 500, body: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } };
}

/** One error shape for every failure; 5xx details go to the log, never to the client. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const { status, body } = toApiError(error);
    // A limit reached (429), or a call refused by an instance that is draining (503).
    const retryAfter = error instanceof AppError ? (error.cause as { retryAfterSec?: number } | undefined)?.retryAfterSec : undefined;
    if (retryAfter) void reply.header('retry-after', String(retryAfter));
    // A refusal that says when to try again is the server working as planned, not a failure.
    if (status >= 500 && !retryAfter) request.log.error({ err: error, url: pathForLog(request.url), method: request.method }, 'request failed');
    else request.log.info({ code: body.code, url: pathForLog(request.url) }, body.message);
    return sendError(reply, status, body);
  });
}
