import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { TestBrowser } from '../../../tests/support/test-browser';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
  // Routes added the way a domain plugin adds them: one says nothing, one says it is public.
  testApp.app.get('/api/v1/test/new-route', async () => ({ reached: true }));
  testApp.app.get('/api/v1/test/new-public-route', { config: { public: true } }, async () => ({ reached: true }));
  await testApp.app.ready();
});
afterAll(() => testApp.close());

const unauthenticated = { error: { code: 'unauthenticated', message: 'You need to sign in first' } };

describe('the session check', () => {
  it('closes a new API route by default, and opens one marked public', async () => {
    const anonymous = new TestBrowser(testApp.app);
    const closed = await anonymous.get('/api/v1/test/new-route');
    expect(closed.statusCode).toBe(401);
    expect(closed.json()).toEqual(unauthenticated);
    expect((await anonymous.get('/api/v1/test/new-public-route')).json()).toEqual({ reached: true });

    const { browser } = await newSignedInUser(testApp.app);
    expect((await browser.get('/api/v1/test/new-route')).json()).toEqual({ reached: true });
  });

  it('answers 401 before the body is validated, so a stranger learns nothing of the schema', async () => {
    const anonymous = new TestBrowser(testApp.app);
    const empty = await anonymous.post('/api/v1/calls', {});
    expect(empty.statusCode).toBe(401);
    expect(empty.json()).toEqual({ error: { code: 'unauthenticated', message: 'Please log in to make calls' } });

    for (const [method, url, body] of [
      ['POST', '/api/v1/contacts', { name: 5, admin: true }],
      ['PATCH', '/api/v1/account', []],
      ['PUT', '/api/v1/voice-settings', { voiceType: 'nope' }],
      ['PATCH', '/api/v1/numbers/not-a-uuid', { friendlyName: null }],
      ['POST', '/functions/v1/vonage-phone', {}],
    ] as const) {
      const response = await anonymous.request(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json().error, `${method} ${url}`).toEqual(unauthenticated.error);
    }
  });

  it('answers 401 before the body is parsed: broken JSON, another content type, a huge body', async () => {
    const anonymous = new TestBrowser(testApp.app);
    for (const [payload, type] of [
      ['{"name": "Ada", ', 'application/json'],
      ['name=Ada', 'application/x-www-form-urlencoded'],
      [`{"name": "${'x'.repeat(2_000_000)}"}`, 'application/json'],
    ] as const) {
      const response = await anonymous.request('POST', '/api/v1/contacts', undefined, { 'content-type': type });
      const raw = await testApp.app.inject({ method: 'POST', url: '/api/v1/contacts', payload, headers: { 'content-type': type, origin: 'http://localhost:3000' } });
      expect(response.statusCode, type).toBe(401);
      expect(raw.statusCode, `${type}, ${payload.length} bytes`).toBe(401);
      expect(raw.json()).toEqual(unauthenticated);
    }
  });

  it('judges an encoded path by the route it reaches', async () => {
    const response = await new TestBrowser(testApp.app).get('/%61pi/v1/contacts');
    expect(response.statusCode).toBe(401);
  });
});
