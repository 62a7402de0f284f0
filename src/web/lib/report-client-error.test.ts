import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ERROR_LIMITS } from '../../common/api/client-error-limits';
import { clientErrorReportSchema } from '../../common/api/client-errors';
import { reportClientError } from './report-client-error';

afterEach(() => vi.unstubAllGlobals());

function capturedReports() {
  const fetchStub = vi.fn(async (_url: string, _init?: RequestInit) => new Response(null, { status: 204 }));
  vi.stubGlobal('fetch', fetchStub);
  return { fetchStub, bodies: () => fetchStub.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as unknown) };
}

describe('reporting a page error', () => {
  it('posts the route, message and stack once per error, kept alive through a reload', () => {
    const { fetchStub, bodies } = capturedReports();
    const error = new TypeError('Cannot read properties of undefined');
    reportClientError(error, '/contacts');
    reportClientError(error, '/contacts');
    expect(fetchStub).toHaveBeenCalledTimes(1);
    expect(fetchStub.mock.calls[0]![0]).toBe('/api/v1/client-errors');
    expect(fetchStub.mock.calls[0]![1]).toMatchObject({ method: 'POST', keepalive: true });
    expect(bodies()).toEqual([{ route: '/contacts', message: 'Cannot read properties of undefined', stack: error.stack }]);
  });

  it('cuts and cleans what it sends so that the server accepts it', () => {
    const { bodies } = capturedReports();
    const error = new Error(`${'\u{1F4DE}'.repeat(CLIENT_ERROR_LIMITS.message)}\r\u0000`);
    error.stack = `Error\n\tat x\r\n${'s'.repeat(CLIENT_ERROR_LIMITS.stack)}`;
    reportClientError(error, '');
    reportClientError('a thrown string', '/dialer');
    for (const body of bodies()) expect(clientErrorReportSchema.safeParse(body).error).toBeUndefined();
    expect(bodies()[1]).toEqual({ route: '/dialer', message: 'a thrown string' });
  });

  it('never throws, whether fetch throws or its request fails', () => {
    vi.stubGlobal('fetch', () => {
      throw new TypeError('fetch is broken');
    });
    expect(() => reportClientError(new Error('one'), '/')).not.toThrow();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(() => reportClientError(new Error('two'), '/')).not.toThrow();
    const unprintable = { toString: () => { throw new Error('no'); } };
    expect(() => reportClientError(unprintable, '/')).not.toThrow();
  });
});
