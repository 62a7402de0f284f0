import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { cookieHeader } from '../../../tests/support/media-client';
import { MAX_URL_LENGTH } from './request-limits';
import { PERMISSIONS_POLICY } from './response-headers';

let testApp: TestApp;
let port: number;

beforeAll(async () => {
  testApp = await buildTestApp();
  const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(() => testApp.close());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over a real socket: inject would skip Node's HTTP parser and its limits. */
function send(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end();
  });
}

const MARKER = 'reflected-marker';

describe('odd requests, over a real socket', () => {
  it(`answers a URL longer than ${MAX_URL_LENGTH} characters with 414 in the error shape, without the path`, async () => {
    for (const path of [`/api/v1/contacts?q=${MARKER}${'a'.repeat(MAX_URL_LENGTH)}`, `/${MARKER}${'b'.repeat(MAX_URL_LENGTH)}`]) {
      const answer = await send(path);
      expect(answer.status).toBe(414);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'uri_too_long', message: expect.any(String) } });
      expect(answer.body).not.toContain(MARKER);
    }
    expect((await send(`/api/v1/contacts?q=${'a'.repeat(MAX_URL_LENGTH - 30)}`)).status).toBe(401);
  });

  it('answers headers too large for the parser with 431 in the error shape', async () => {
    const answer = await send('/api/v1/session', { cookie: `big=${MARKER}${'c'.repeat(20_000)}` });
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String) } });
    expect(answer.body).not.toContain(MARKER);
  });

  it("answers the router's own refusals in the error shape, without the path", async () => {
    const badEncoding = await send(`/api/v1/contacts/${MARKER}%E0%A4%A`);
    expect(badEncoding.status).toBe(400);
    expect(JSON.parse(badEncoding.body)).toEqual({ error: { code: 'bad_url', message: expect.any(String) } });
    expect(badEncoding.body).not.toContain(MARKER);

  });

  it('answers an unknown API path, or a segment longer than the router matches, with 404 without repeating it', async () => {
    for (const path of [`/api/v1/${MARKER}`, `/api/v1/contacts/${MARKER}${'d'.repeat(200)}`]) {
      const answer = await send(path);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body).error.code).toBe('not_found');
      expect(answer.body).not.toContain(MARKER);
    }
  });
});

describe('response headers', () => {
  it('allow the microphone for this site only, on pages and API answers alike', async () => {
    expect(PERMISSIONS_POLICY).toContain('microphone=(self)');
    expect(PERMISSIONS_POLICY).toContain('camera=()');
    for (const path of ['/', '/settings', '/api/v1/health', '/api/v1/session', '/api/v1/nope']) {
      expect((await send(path)).headers['permissions-policy'], path).toBe(PERMISSIONS_POLICY);
    }
  });

  it('keep authenticated API answers, and refusals, out of every cache', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const cookie = cookieHeader(browser.cookies);
    for (const path of ['/api/v1/account', '/api/v1/contacts', '/api/v1/session', '/api/v1/subscription']) {
      const answer = await send(path, { cookie });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['cache-control'], path).toBe('no-store');
    }
    const refused = await send('/api/v1/account');
    expect(refused.status).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});
