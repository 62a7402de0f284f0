import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber, TEST_PASSWORD } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { isAdmin } from './admins';
import { ENDED_BY_ADMIN } from './service';

// Listed in another case than the address signs up with: the match ignores case.
const ADMIN_EMAIL = 'ops.lead@example.com';
const ADMIN_ROUTES = [
  ['GET', '/api/v1/admin/calls'],
  ['GET', '/api/v1/admin/instances'],
  ['GET', '/api/v1/admin/payments'],
  ['POST', `/api/v1/admin/calls/${randomUUID()}/end`],
] as const;

let testApp: TestApp;
let wsBase: string;
let admin: TestBrowser;
const logLines: Record<string, unknown>[] = [];

async function signedInAs(email: string, fullName: string) {
  const signUp = await new TestBrowser(testApp.app).post('/api/v1/auth/sign-up', { fullName, email, password: TEST_PASSWORD });
  expect(signUp.statusCode, signUp.body).toBe(201);
  const browser = new TestBrowser(testApp.app);
  const signIn = await browser.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
  expect(signIn.statusCode, signIn.body).toBe(200);
  return browser;
}

beforeAll(async () => {
  testApp = await buildTestApp({
    env: { ADMIN_EMAILS: 'someone@example.org, OPS.Lead@Example.COM', LOG_LEVEL: 'info' },
    logStream: { write: (line) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  admin = await signedInAs(ADMIN_EMAIL, 'Olga Operator');
});
afterAll(() => testApp?.close());

describe('isAdmin', () => {
  it('matches a listed address in any case, and nothing else', () => {
    expect(isAdmin('Ops.Lead@EXAMPLE.com', ['ops.lead@example.com'])).toBe(true);
    expect(isAdmin('ops.lead@example.com.evil', ['ops.lead@example.com'])).toBe(false);
    expect(isAdmin('ops.lead@example.com', [])).toBe(false);
  });
});

describe('the admin routes', () => {
  it('tell the session whether its user is an administrator', async () => {
    expect((await admin.get('/api/v1/session')).json()).toMatchObject({ user: { email: ADMIN_EMAIL }, isAdmin: true });
    const { browser } = await newSignedInUser(testApp.app, 'Norma Ordinary');
    expect((await browser.get('/api/v1/session')).json()).toMatchObject({ isAdmin: false });
  });

  it('refuse an ordinary user with 403 on every route, whatever the request, and a visitor with 401', async () => {
    const { browser } = await newSignedInUser(testApp.app, 'Norma Ordinary');
    for (const [method, url] of [...ADMIN_ROUTES, ['POST', '/api/v1/admin/calls/not%00a-uuid/end'] as const]) {
      const answer = await browser.request(method, url);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
      expect(answer.json().error, `${method} ${url}`).toEqual({ code: 'admin_only', message: 'Only Voxline administrators can do this.' });
    }
    for (const [method, url] of ADMIN_ROUTES) expect((await new TestBrowser(testApp.app).request(method, url)).statusCode).toBe(401);
  });

  it("list another user's sound-test call with its figures, end it, tell its user why, and log who did it", async () => {
    const caller = await newSignedInUser(testApp.app, 'Carla Caller');
    const number = await rentANumber(caller.browser);
    const tab = await RealtimeTab.open(wsBase, caller.browser);
    const placed = await caller.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const callId = placed.json().call.id as string;
    const media = await MediaClient.connect(`${wsBase}${placed.json().mediaPath}`, cookieHeader(caller.browser.cookies));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 5);

    const listed = await admin.get('/api/v1/admin/calls');
    expect(listed.statusCode, listed.body).toBe(200);
    const call = (listed.json().calls as { id: string; media: { framesIn: number; framesOut: number } | null }[]).find((one) => one.id === callId);
    expect(call).toMatchObject({
      direction: 'outbound',
      from: number,
      to: '+14155550100',
      callerEmail: caller.email,
      calleeEmail: null,
      state: 'answered',
      mediaTransport: 'websocket-pcm',
    });
    expect(call!.media!.framesIn).toBeGreaterThan(0);
    expect(call!.media!.framesOut).toBeGreaterThan(0);

    const instances = (await admin.get('/api/v1/admin/instances')).json().instances as { id: string; state: string; calls: number }[];
    expect(instances).toHaveLength(1);
    expect(instances[0]).toMatchObject({ id: (call as unknown as { instanceId: string }).instanceId, state: 'running', calls: 1, drainingSince: null });

    const ended = await admin.post(`/api/v1/admin/calls/${callId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ id: callId, outcome: 'completed', reason: ENDED_BY_ADMIN });
    expect(await tab.next('call.ended')).toMatchObject({ callId, outcome: 'completed', reason: ENDED_BY_ADMIN });
    expect((await caller.browser.get(`/api/v1/calls/${callId}`)).json()).toMatchObject({ state: 'ended', outcome: 'completed', reason: ENDED_BY_ADMIN });
    expect((await admin.get('/api/v1/admin/calls')).json().calls).toEqual([]);

    const logged = logLines.find((line) => line.msg === 'an administrator ended a call');
    expect(logged).toMatchObject({ level: 30, reqId: ended.headers['x-request-id'], callId, outcome: 'completed', admin: { email: ADMIN_EMAIL } });
    expect((logged!.admin as { userId: string }).userId).toBe((await admin.get('/api/v1/session')).json().user.id);
    media.close();
    tab.socket.close();
  });

  it('answer 404 for a call that is unknown or already over', async () => {
    for (const callId of [randomUUID(), 'not-a-uuid']) {
      const answer = await admin.post(`/api/v1/admin/calls/${callId}/end`);
      expect(answer.statusCode).toBe(404);
      expect(answer.json().error).toEqual({ code: 'not_found', message: 'No such call in progress' });
    }
    const caller = await newSignedInUser(testApp.app, 'Hugo Hungup');
    const number = await rentANumber(caller.browser);
    const { call } = (await caller.browser.post('/api/v1/calls', { from: number, to: '+14155550100' })).json();
    await caller.browser.post(`/api/v1/calls/${call.id}/hangup`);
    expect((await admin.post(`/api/v1/admin/calls/${call.id}/end`)).statusCode).toBe(404);
  });

  it('list the recent payments of every user, newest first', async () => {
    const payer = await newSignedInUser(testApp.app, 'Paula Payer');
    const first = await payer.browser.post('/api/v1/payments', { planType: 'premium' });
    const second = await payer.browser.post('/api/v1/payments', { planType: 'platinum' });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const listed = await admin.get('/api/v1/admin/payments');
    expect(listed.statusCode, listed.body).toBe(200);
    const payments = listed.json().payments as { reference: string }[];
    expect(payments.slice(0, 2)).toMatchObject([
      { reference: second.json().reference, email: payer.email, plan: 'platinum', amountUsdMinor: 15_000, currency: 'NGN', status: 'pending' },
      { reference: first.json().reference, email: payer.email, plan: 'premium', amountUsdMinor: 10_000, amountMinor: 17_200_000, status: 'pending' },
    ]);
  });
});
