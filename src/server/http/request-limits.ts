import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '../../common/api/errors';
import { sendError } from './error-handler';

/**
 * The longest request target (path and query) served: the app's own URLs stay under 300
 * characters, and browsers and proxies commonly stop at 8 KiB. Node's header limit (16 KiB for
 * the request line and every header together) answers 431 beyond that.
 */
export const MAX_URL_LENGTH = 8192;

// No answer below repeats the path: it may carry a token, and an echoed path is reflected content.
const uriTooLong = { code: 'uri_too_long', message: `The address is too long: keep it under ${MAX_URL_LENGTH} characters.` } as const;

/** 414 for a URL longer than MAX_URL_LENGTH, before any route or hook reads it. */
export function refuseLongUrls(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.length > MAX_URL_LENGTH) return sendError(reply, 414, uriTooLong);
  });
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a path that is not valid percent-encoding,
 * a path segment over its length limit), which it would otherwise answer in its own shape with the
 * path quoted.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 414, { code: 'uri_too_long', message: 'A part of the address is too long.' });
  if (error.code === 'FST_ERR_BAD_URL') return sendError(reply, 400, { code: 'bad_url', message: 'The address is not valid: check its percent-encoding.' });
  return sendError(reply, 500, { code: 'internal', message: 'Something went wrong on our side. Please try again.' });
}

/** What Node's HTTP parser refused, as status and error body (nothing of the request is repeated). */
function clientErrorAnswer(error: NodeJS.ErrnoException): { status: number; body: ApiErrorBody['error'] } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, body: { code: 'headers_too_large', message: 'The request headers are too large: clear this site’s cookies and try again.' } };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, body: { code: 'request_timeout', message: 'The request took too long to arrive. Please try again.' } };
    default:
      return { status: 400, body: { code: 'bad_request', message: 'The request is not valid HTTP.' } };
  }
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses never reach Fastify, so their
 * answer is written on the raw socket, in the app's error shape.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = clientErrorAnswer(error);
  this.log.debug({ code: error.code }, 'refused a request the HTTP parser could not read');
  if (socket.writable) {
    const json = JSON.stringify({ error: body } satisfies ApiErrorBody);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
