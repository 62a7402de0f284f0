import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAPIError } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import { AppError } from '../http/app-error';

/** The request's headers in the Fetch form better-auth reads (cookies, user agent, client IP). */
export function authHeaders(request: FastifyRequest): Headers {
  const headers = fromNodeHeaders(request.headers);
  headers.set('x-voxline-client-ip', request.ip);
  return headers;
}

/** Passes the cookies better-auth set (session, two-factor challenge, clearing) on to the browser. */
export function forwardCookies(reply: FastifyReply, headers: Headers) {
  for (const cookie of headers.getSetCookie()) void reply.header('set-cookie', cookie);
}

export interface AuthErrorMapping {
  [betterAuthCode: string]: AppError;
}

/**
 * Turns a better-auth APIError into our error shape: a known code maps to the AppError given,
 * any other 4xx keeps its status with better-auth's message, and anything else is rethrown.
 */
export function translateAuthError(error: unknown, mapping: AuthErrorMapping = {}): never {
  if (!isAPIError(error)) throw error;
  const body = (error.body ?? {}) as { code?: string; message?: string };
  const mapped = body.code ? mapping[body.code] : undefined;
  if (mapped) throw mapped;
  if (error.statusCode >= 400 && error.statusCode < 500) {
    throw new AppError(error.statusCode, (body.code ?? 'auth_error').toLowerCase(), body.message ?? error.message);
  }
  throw error;
}
