import { z } from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../tests/support/render-web';
import { api, ApiError } from './api-client';
import { retryDelay, shouldRetry } from './query-client';

afterEach(() => vi.unstubAllGlobals());

const itemSchema = z.object({ id: z.string() });

describe('api', () => {
  it('returns the parsed body of a success', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/items/1': { status: 200, body: { id: '1', extra: true } } }).fetchStub);
    await expect(api.get('/items/1', itemSchema)).resolves.toEqual({ id: '1' });
  });

  it('throws an ApiError carrying the server’s code, message and field', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({ '/api/v1/items': { status: 400, body: { error: { code: 'invalid_input', message: 'name: Required', field: 'name' } } } }).fetchStub,
    );
    const failure = api.post('/items', itemSchema, { name: '' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 400, code: 'invalid_input', message: 'name: Required', field: 'name' });
  });

  it('checks a request body against its schema before sending', async () => {
    const { fetchStub, calls } = stubFetch({});
    vi.stubGlobal('fetch', fetchStub);
    await expect(api.post('/items', itemSchema, { id: 5 } as unknown as { id: string }, itemSchema)).rejects.toThrow();
    expect(calls).toHaveLength(0);
  });

  it('reports an unreachable server as a network error', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/items/1', itemSchema)).rejects.toMatchObject({ status: 0, code: 'network' });
  });

  it('refuses an answer that does not match the schema', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/items/1': { status: 200, body: { id: 1 } } }).fetchStub);
    await expect(api.get('/items/1', itemSchema)).rejects.toMatchObject({ code: 'bad_response' });
  });
});

describe('query retries (docs/product.md §9)', () => {
  it('retries up to 3 times, but never a 4xx', () => {
    expect(shouldRetry(0, new ApiError(503, 'unavailable', 'x'))).toBe(true);
    expect(shouldRetry(2, ApiError.network())).toBe(true);
    expect(shouldRetry(3, ApiError.network())).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'x'))).toBe(false);
  });

  it('backs off exponentially, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
