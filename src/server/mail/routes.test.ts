import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../../tests/support/accounts';
import { productionEnv } from '../../../tests/support/production-env';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';

const OUTBOX_PATHS = ['/api/v1/dev/outbox', '/dev/outbox'];

describe('the outbox (no SMTP_URL)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(() => testApp.close());

  it('keeps each message with its links and lists them, newest first', async () => {
    const email = uniqueEmail('outbox');
    await new TestBrowser(testApp.app).post('/api/v1/auth/sign-up', { fullName: 'Outbox Test', email, password: TEST_PASSWORD });
    await new TestBrowser(testApp.app).post('/api/v1/auth/password-reset', { email });

    const listing = await testApp.app.inject({ method: 'GET', url: '/api/v1/dev/outbox' });
    expect(listing.statusCode).toBe(200);
    const mine = listing.json().messages.filter((m: { to: string }) => m.to === email);
    expect(mine.map((m: { subject: string }) => m.subject)).toEqual(['Reset your Voxline password', 'Confirm your Voxline email address']);
    expect(mine[0].links[0]).toMatch(/^http:\/\/localhost:3000\/auth\?tab=updatePassword&token=/);

    const page = await testApp.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Reset your Voxline password');
    expect(page.body).toContain(email);
  });

  it('answers every loopback address, IPv4, IPv6 and IPv4 mapped into IPv6', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.31.4.1', '::1', '::ffff:127.0.0.1']) {
      for (const url of OUTBOX_PATHS) {
        const response = await testApp.app.inject({ method: 'GET', url, remoteAddress });
        expect(response.statusCode, `${url} from ${remoteAddress}`).toBe(200);
      }
    }
  });

  it('answers over a real connection from this machine', async () => {
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const address = testApp.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/dev/outbox`);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('messages');
  });

  it('does not exist for another machine: 404 in the error shape, the page included, as for an unknown route', async () => {
    const unknownRoute = await testApp.app.inject({ method: 'GET', url: '/api/v1/dev/nothing-here', remoteAddress: '203.0.113.7' });
    expect(unknownRoute.statusCode).toBe(404);
    for (const remoteAddress of ['203.0.113.7', '10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1']) {
      for (const url of OUTBOX_PATHS) {
        const response = await testApp.app.inject({ method: 'GET', url, remoteAddress });
        expect(response.statusCode, `${url} from ${remoteAddress}`).toBe(404);
        expect(response.json()).toEqual(unknownRoute.json());
        expect(response.body).not.toContain('token=');
      }
    }
  });

  it('does not exist for a request a proxy passed on, even from a loopback address', async () => {
    for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }, { 'x-forwarded-for': '' }]) {
      for (const url of OUTBOX_PATHS) {
        const response = await testApp.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers });
        expect(response.statusCode, `${url} with ${JSON.stringify(headers)}`).toBe(404);
      }
    }
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  it('judges by the connection, not by the client address X-Forwarded-For claims', async () => {
    const proxied = await buildTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const claimed = await proxied.app.inject({ method: 'GET', url: '/api/v1/dev/outbox', remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(claimed.statusCode).toBe(404);
      const passedOn = await proxied.app.inject({ method: 'GET', url: '/api/v1/dev/outbox', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(passedOn.statusCode).toBe(404);
    } finally {
      await proxied.close();
    }
  });
});

describe('in production', () => {
  it('does not serve the outbox, even to this machine', async () => {
    const production = await buildTestApp({ env: productionEnv });
    try {
      // The page's path is left to the web app (its index.html when built), like any unknown page.
      const page = await production.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '127.0.0.1' });
      expect(page.body).not.toContain('Mail kept instead of sent');
      const api = await production.app.inject({ method: 'GET', url: '/api/v1/dev/outbox' });
      expect(api.statusCode).toBe(404);
      expect(api.json().error.code).toBe('not_found');
    } finally {
      await production.close();
    }
  });
});
