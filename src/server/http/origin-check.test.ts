import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newSignedInUser } from '../../../tests/support/accounts';
import { cookieHeader } from '../../../tests/support/media-client';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';
import { allowedOrigins } from './origin-check';

const OURS = 'http://localhost:3000';
const FOREIGN = 'https://evil.example';

let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

/** The status a websocket upgrade gets: 101 when it opens (then closed at once), else the refusal's. */
function upgradeStatus(path: string, headers: Record<string, string>) {
  const socket = new WebSocket(`${wsBase}${path}`, { headers });
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

async function signedInCookie() {
  const { browser } = await newSignedInUser(testApp.app);
  return cookieHeader(browser.cookies);
}

describe('websocket upgrades', () => {
  const sockets = [
    ['the signalling socket', '/api/v1/realtime'],
    ['a call media socket', '/api/v1/calls/6f1c1c9e-0000-4000-8000-000000000000/media'],
  ] as const;

  it.each(sockets)('refuses %s opened by a page of another site with 403, before upgrading', async (_name, path) => {
    const cookie = await signedInCookie();
    const refused = await upgradeStatus(path, { cookie, origin: FOREIGN });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: 'forbidden_origin', message: expect.stringContaining('another site') } });
  });

  it.each(sockets)('refuses %s without an Origin, which every browser sends', async (_name, path) => {
    expect((await upgradeStatus(path, { cookie: await signedInCookie() })).status).toBe(403);
  });

  it('refuses an Origin that only names the Host the request was sent with', async () => {
    const cookie = await signedInCookie();
    expect((await upgradeStatus('/api/v1/realtime', { cookie, origin: 'http://evil.example', host: 'evil.example' })).status).toBe(403);
  });

  it('opens the signalling socket for a page at PUBLIC_URL', async () => {
    expect((await upgradeStatus('/api/v1/realtime', { cookie: await signedInCookie(), origin: OURS })).status).toBe(101);
  });

  it("leaves the provider's media socket to its own token: Vonage's servers send no Origin", async () => {
    // Not TELEPHONY=vonage here, so the route answers that it is not in use: not a 403 from the Origin rule.
    expect((await upgradeStatus('/api/v1/providers/vonage/media?token=unknown', {})).status).toBe(404);
  });
});

describe('state-changing requests', () => {
  it('judges an encoded path by the route it reaches: POST /%61pi/v1/contacts from another site is refused', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const contact = { name: 'Eve', phoneNumber: '+14155550199' };
    const evil = await browser.request('POST', '/%61pi/v1/contacts', contact, { origin: FOREIGN });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().error.code).toBe('forbidden_origin');
    expect((await browser.get('/api/v1/contacts')).json().contacts).toEqual([]);
  });

  it('refuses POST /%61pi/v1/auth/sign-out from another site, and the session lives on', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const evil = await browser.request('POST', '/%61pi/v1/auth/sign-out', undefined, { origin: FOREIGN });
    expect(evil.statusCode).toBe(403);
    expect((await browser.get('/api/v1/session')).json()).toMatchObject({ user: expect.any(Object) });
  });

  it('refuses a foreign Origin that names the Host the request was sent with', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const evil = await browser.request('POST', '/api/v1/contacts', { name: 'Eve', phoneNumber: '+14155550199' }, { origin: 'http://evil.example', host: 'evil.example' });
    expect(evil.statusCode).toBe(403);
  });

  it('lets requests without an Origin through (no browser sends those: providers, scripts)', async () => {
    const browser = new TestBrowser(testApp.app);
    const response = await testApp.app.inject({ method: 'POST', url: '/api/v1/auth/sign-out', remoteAddress: browser.ip });
    expect(response.statusCode).toBe(200);
  });
});

describe('allowedOrigins', () => {
  it("is PUBLIC_URL's origin, and the Vite dev server's in development only", () => {
    expect([...allowedOrigins({ publicUrl: 'https://voxline.example/app/', NODE_ENV: 'production' })]).toEqual(['https://voxline.example']);
    expect([...allowedOrigins({ publicUrl: 'http://localhost:3000', NODE_ENV: 'test' })]).toEqual(['http://localhost:3000']);
    expect([...allowedOrigins({ publicUrl: 'http://localhost:3000', NODE_ENV: 'development' })]).toEqual([
      'http://localhost:3000',
      'http://localhost:5173',
      'http://127.0.0.1:5173',
    ]);
  });
});
