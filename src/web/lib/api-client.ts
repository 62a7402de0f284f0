import { parse, safeParse, type $ZodType } from 'zod/v4/core';
import { apiErrorSchema } from '../../common/api/errors';
import { takeEarly } from './early-requests';

/** A failed API call in the one known shape; status 0 means the server could not be reached. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** The X-Request-Id of the server's answer, under which its log lines for the request are found. */
    readonly requestId: string | null = null,
  ) {
    super(message);
  }

  /** What a person quotes to support for this failure: the start of its request id (docs/operations.md#logs). */
  get reference(): string | null {
    return this.requestId ? this.requestId.slice(0, 8) : null;
  }

  static network() {
    return new ApiError(0, 'network', 'Cannot reach Voxline. Check your connection and try again.');
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions<TBody> {
  body?: TBody;
  bodySchema?: $ZodType<TBody>;
  signal?: AbortSignal;
}

async function request<TResult, TBody = unknown>(
  method: Method,
  path: string,
  responseSchema: $ZodType<TResult>,
  { body, bodySchema, signal }: RequestOptions<TBody> = {},
): Promise<TResult> {
  // A GET the page started before this code loaded (lib/early-requests.ts) is read rather than sent again.
  const early = method === 'GET' ? takeEarly(path) : undefined;
  const earlyResponse = early && (await early);
  if (earlyResponse) return readAnswer(earlyResponse, responseSchema);
  const payload = body === undefined ? undefined : JSON.stringify(bodySchema ? parse(bodySchema, body) : body);
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: payload === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: payload,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw ApiError.network();
  }
  return readAnswer(response, responseSchema);
}

/** An answer of /api/v1 as every call reads it: an ApiError from its error shape, or its body checked against the schema. */
async function readAnswer<TResult>(response: Response, responseSchema: $ZodType<TResult>): Promise<TResult> {
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  const requestId = response.headers.get('x-request-id');
  if (!response.ok) {
    const parsed = safeParse(apiErrorSchema, json);
    if (parsed.success) {
      const { code, message, field } = parsed.data.error;
      throw new ApiError(response.status, code, message, field, requestId);
    }
    throw new ApiError(response.status, 'http_error', `The server answered ${response.status}`, undefined, requestId);
  }
  const parsed = safeParse(responseSchema, json);
  if (!parsed.success) throw new ApiError(response.status, 'bad_response', 'The server sent an answer this page does not understand', undefined, requestId);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The one client every page uses for /api/v1: bodies checked against the shared zod schemas both ways (zod's core functions: classic and mini schemas alike). */
export const api = {
  get: <T>(path: string, schema: $ZodType<T>, signal?: AbortSignal) => request('GET', path, schema, { signal }),
  post: <T, B>(path: string, schema: $ZodType<T>, body?: B, bodySchema?: $ZodType<B>) => request('POST', path, schema, { body, bodySchema }),
  put: <T, B>(path: string, schema: $ZodType<T>, body?: B, bodySchema?: $ZodType<B>) => request('PUT', path, schema, { body, bodySchema }),
  patch: <T, B>(path: string, schema: $ZodType<T>, body?: B, bodySchema?: $ZodType<B>) => request('PATCH', path, schema, { body, bodySchema }),
  delete: <T>(path: string, schema: $ZodType<T>) => request('DELETE', path, schema),
};
