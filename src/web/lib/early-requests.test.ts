import { z } from 'zod/mini';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../tests/support/render-web';
import { api } from './api-client';
import { fetchEarly } from './early-requests';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const numbersSchema = z.array(z.string());

describe('early requests', () => {
  it("answer the page's first read of their path and leave every later read to the server", async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/numbers': { status: 200, body: ['+2348031234567'] } });
    vi.stubGlobal('fetch', fetchStub);
    fetchEarly('/numbers');
    fetchEarly('/numbers');
    expect(calls.map(({ url, init }) => [url, init?.credentials])).toEqual([['/api/v1/numbers', 'same-origin']]);

    await expect(api.get('/numbers', numbersSchema)).resolves.toEqual(['+2348031234567']);
    expect(calls).toHaveLength(1);
    await api.get('/numbers', numbersSchema);
    expect(calls).toHaveLength(2);
  });

  it('carry an error answer to the reader as if it had asked', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/contacts': { status: 503, body: { error: { code: 'unavailable', message: 'The database is not answering' } } } }).fetchStub);
    fetchEarly('/contacts');
    await expect(api.get('/contacts', numbersSchema)).rejects.toMatchObject({ status: 503, message: 'The database is not answering' });
  });

  it('leave the reader to ask again when the early fetch could not reach the server', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    fetchEarly('/storage');
    const { fetchStub, calls } = stubFetch({ '/api/v1/storage': { status: 200, body: ['ok'] } });
    vi.stubGlobal('fetch', fetchStub);
    await expect(api.get('/storage', numbersSchema)).resolves.toEqual(['ok']);
    expect(calls).toHaveLength(1);
  });

  it('are dropped unread when the page reads them more than 10 s after asking', async () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const early = stubFetch({ '/api/v1/voice-settings': { status: 200, body: ['old'] } });
    vi.stubGlobal('fetch', early.fetchStub);
    fetchEarly('/voice-settings');
    now.mockReturnValue(11_001);
    const later = stubFetch({ '/api/v1/voice-settings': { status: 200, body: ['new'] } });
    vi.stubGlobal('fetch', later.fetchStub);
    await expect(api.get('/voice-settings', numbersSchema)).resolves.toEqual(['new']);
  });

  it('are never read by a request that changes something', async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/calls/lines': { status: 200, body: ['line'] } });
    vi.stubGlobal('fetch', fetchStub);
    fetchEarly('/calls/lines');
    await api.post('/calls/lines', numbersSchema, { line: 1 });
    expect(calls.map(({ init }) => init?.method ?? 'GET')).toEqual(['GET', 'POST']);
  });
});
