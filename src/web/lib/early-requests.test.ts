import { z } from 'zod/mini';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetLanding, landOnPage } from '../../../tests/support/landing';
import { stubFetch } from '../../../tests/support/render-web';
import { api } from './api-client';
import { takeEarly } from './early-requests';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  forgetLanding();
});

const listSchema = z.array(z.string());

describe('early requests', () => {
  it("answer the page's first read of their path and leave every later read to the server", async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/numbers': { status: 200, body: ['+2348031234567'] } });
    landOnPage(fetchStub, '/dialer', ['/numbers']);
    vi.stubGlobal('fetch', fetchStub);
    expect(calls.map(({ url }) => url)).toEqual(['/api/v1/session', '/api/v1/numbers']);

    await expect(api.get('/numbers', listSchema)).resolves.toEqual(['+2348031234567']);
    expect(calls).toHaveLength(2);
    await api.get('/numbers', listSchema);
    expect(calls).toHaveLength(3);
  });

  it('carry an error answer to the reader as if it had asked', async () => {
    landOnPage(stubFetch({ '/api/v1/contacts': { status: 503, body: { error: { code: 'unavailable', message: 'The database is not answering' } } } }).fetchStub, '/contacts', ['/contacts']);
    await expect(api.get('/contacts', listSchema)).rejects.toMatchObject({ status: 503, message: 'The database is not answering' });
  });

  it('leave the reader to ask again when the early fetch could not reach the server', async () => {
    landOnPage(() => Promise.reject(new TypeError('Failed to fetch')), '/settings', ['/storage']);
    const { fetchStub, calls } = stubFetch({ '/api/v1/storage': { status: 200, body: ['ok'] } });
    vi.stubGlobal('fetch', fetchStub);
    await expect(api.get('/storage', listSchema)).resolves.toEqual(['ok']);
    expect(calls).toHaveLength(1);
  });

  it('are dropped unread when the page reads them more than 10 s after its first read', async () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    landOnPage(stubFetch({ '/api/v1/voice-settings': { status: 200, body: ['old'] } }).fetchStub, '/call-settings', ['/voice-settings']);
    expect(takeEarly('/session')).toBeDefined();
    now.mockReturnValue(11_001);
    vi.stubGlobal('fetch', stubFetch({ '/api/v1/voice-settings': { status: 200, body: ['new'] } }).fetchStub);
    await expect(api.get('/voice-settings', listSchema)).resolves.toEqual(['new']);
  });

  it('are never read by a request that changes something', async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/calls/lines': { status: 200, body: ['line'] } });
    landOnPage(fetchStub, '/call-settings', ['/calls/lines']);
    vi.stubGlobal('fetch', fetchStub);
    await api.post('/calls/lines', listSchema, { line: 1 });
    expect(calls.map(({ url, init }) => `${init?.method ?? 'GET'} ${url}`)).toEqual(['GET /api/v1/session', 'GET /api/v1/calls/lines', 'POST /api/v1/calls/lines']);
  });
});
