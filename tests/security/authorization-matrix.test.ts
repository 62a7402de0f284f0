import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingKey } from '../../src/server/recordings/recording-rows';
import { recordings } from '../../src/server/recordings/schema';
import { voicemails } from '../../src/server/voicemail/schema';
import { newSignedInUser, rentANumber, TEST_PASSWORD } from '../support/accounts';
import { cookieHeader } from '../support/media-client';
import type { TestApp } from '../support/test-app';
import type { TestBrowser } from '../support/test-browser';
import { buildAppWithRouteTable, fillParams, routeName, tryUpgrade, type Route, type UpgradeOutcome } from './route-table';

/**
 * Every API route, found in Fastify's route table, checked three ways: without a session (401),
 * as another user reaching user B's thing (404), and from a foreign page (403). A route the
 * fixtures below do not name fails the suite, so a new route is covered the day it is added.
 */

/** User B's things, which user A must never reach. */
interface Resources {
  userId: string;
  contactId: string;
  numberId: string;
  phoneNumber: string;
  callId: string;
  reference: string;
  recordingId: string;
  voicemailId: string;
}

interface Request {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
}

type Fixture =
  /** Served without a session, and why. */
  | { public: string; request?: (b: Resources) => Request }
  | {
      /** A request valid for user B. */
      request: (b: Resources) => Request;
      /**
       * What user A gets for B's request: 404 for a thing of B's; or, for a route that only ever
       * acts on the session's own account, why there is nothing of B's to reach.
       */
      foreign: 404 | { status: number; why: string } | { ownOnly: string };
    };

const ownOnly = (what: string) => ({ ownOnly: what });
const SESSION_OWN = ownOnly('acts on the signed-in account only');
/** The operator's routes: user A, like every user not in ADMIN_EMAILS, is refused whatever is asked. */
const MEDIA_FIGURES = { readings: 3, codec: 'Opus', roundTripMs: null, jitterMs: null, lossShare: null, concealedShare: null, voiceDelayMs: { average: 0, worst: 0 }, quality: 'good', worstQuality: 'good' };
const ADMIN_ONLY = { status: 403, why: 'administrators only (ADMIN_EMAILS): any other user gets 403 admin_only' };

const fixtures: Record<string, Fixture> = {
  'GET /api/v1/health': { public: 'load balancers probe it without an account' },
  'GET /api/v1/health/live': { public: 'load balancers probe it without an account' },
  'GET /api/v1/health/ready': { public: 'load balancers probe it without an account' },
  'POST /api/v1/client-errors': {
    public: 'a page can fail for a visitor who has not signed in, the sign-in page included; limited per address',
    request: () => ({ body: { route: '/', message: 'Boom' } }),
  },
  'POST /api/v1/auth/sign-up': { public: 'making an account needs no session', request: () => ({ body: { fullName: 'X', email: 'x@example.com', password: TEST_PASSWORD } }) },
  'POST /api/v1/auth/sign-in': { public: 'signing in is how a session starts', request: () => ({ body: { email: 'x@example.com', password: TEST_PASSWORD } }) },
  'POST /api/v1/auth/two-factor': { public: 'the second step of signing in, before any session', request: () => ({ body: { code: '123456' } }) },
  'POST /api/v1/auth/password-reset': { public: 'a person who forgot their password has no session', request: () => ({ body: { email: 'x@example.com' } }) },
  'POST /api/v1/auth/password-reset/confirm': {
    public: 'the reset link is followed without a session; its token authorises it',
    request: () => ({ body: { token: 'abc', newPassword: TEST_PASSWORD } }),
  },
  'POST /api/v1/auth/sign-out': { public: 'signing out without a session answers ok, changing nothing' },
  'GET /api/auth/verify-email': { public: 'the link in a confirmation mail, authorised by its token', request: () => ({ query: 'token=abc' }) },
  'GET /api/v1/calls/lines': { public: "the sound-test line's number, the same for everybody" },
  'POST /api/v1/providers/paystack/webhook': { public: "Paystack's servers call it, signed with HMAC-SHA512 over the body", request: () => ({ body: {} }) },
  'POST /api/v1/providers/vonage/events': { public: "Vonage's servers call it, signed with the account's signature secret", request: () => ({ body: {} }) },
  'GET /api/v1/providers/vonage/answer': { public: "Vonage's servers call it, signed with the account's signature secret" },
  'POST /api/v1/providers/vonage/answer': { public: "Vonage's servers call it, signed with the account's signature secret", request: () => ({ body: {} }) },
  'GET /api/v1/providers/vonage/media': { public: "Vonage's servers open it, with a one-time token in the URL; no browser does" },
  'GET /api/v1/dev/outbox': { public: 'a development aid: loopback only, never registered in production' },
  'GET /metrics': { public: 'Prometheus scrapes it with METRICS_TOKEN as a bearer token, not a session (401 without it); 404 while no token is set' },

  'GET /api/v1/session': { public: 'says whether the visitor is signed in: null when not (docs/decisions/025)' },
  'GET /api/v1/account': { request: () => ({}), foreign: SESSION_OWN },
  'PATCH /api/v1/account': { request: () => ({ body: { fullName: 'Bee' } }), foreign: SESSION_OWN },
  'POST /api/v1/account/password': { request: () => ({ body: { currentPassword: TEST_PASSWORD, newPassword: `${TEST_PASSWORD} 2` } }), foreign: SESSION_OWN },
  'POST /api/v1/account/two-factor/enable': { request: () => ({ body: { password: TEST_PASSWORD } }), foreign: SESSION_OWN },
  'POST /api/v1/account/two-factor/confirm': { request: () => ({ body: { code: '123456' } }), foreign: SESSION_OWN },
  'POST /api/v1/account/two-factor/disable': { request: () => ({ body: { password: TEST_PASSWORD } }), foreign: SESSION_OWN },
  'GET /api/v1/preferences': { request: () => ({}), foreign: SESSION_OWN },
  'PATCH /api/v1/preferences': { request: () => ({ body: { darkMode: false } }), foreign: SESSION_OWN },
  'GET /api/v1/media/config': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/voice-settings': { request: () => ({}), foreign: SESSION_OWN },
  'PUT /api/v1/voice-settings': { request: () => ({ body: { voiceType: 'normal', pitch: 1, speed: 1 } }), foreign: SESSION_OWN },
  'GET /api/v1/numbers/available': { request: () => ({ query: 'country=US' }), foreign: ownOnly('a search of the carrier, nobody’s thing') },
  'GET /api/v1/numbers': { request: () => ({}), foreign: SESSION_OWN },
  'POST /api/v1/numbers': { request: () => ({ body: { country: 'US', phoneNumber: '+14155550123' } }), foreign: ownOnly('rents for the signed-in account') },
  'PATCH /api/v1/numbers/:id': { request: (b) => ({ params: { id: b.numberId }, body: { friendlyName: 'Mine now' } }), foreign: 404 },
  'DELETE /api/v1/numbers/:id': { request: (b) => ({ params: { id: b.numberId } }), foreign: 404 },
  'GET /api/v1/contacts': { request: () => ({ query: 'q=Bee' }), foreign: SESSION_OWN },
  'POST /api/v1/contacts': { request: () => ({ body: { name: 'Cee', phoneNumber: '+14155552672' } }), foreign: ownOnly('adds to the signed-in account') },
  'PATCH /api/v1/contacts/:id': { request: (b) => ({ params: { id: b.contactId }, body: { name: 'Mine now' } }), foreign: 404 },
  'DELETE /api/v1/contacts/:id': { request: (b) => ({ params: { id: b.contactId } }), foreign: 404 },
  'GET /api/v1/realtime': { request: () => ({}), foreign: ownOnly("the signed-in user's own signalling") },
  'POST /api/v1/calls': { request: (b) => ({ body: { from: b.phoneNumber, to: '+14155550100' } }), foreign: ownOnly('calls from the signed-in account') },
  'GET /api/v1/calls': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/calls/:id': { request: (b) => ({ params: { id: b.callId } }), foreign: 404 },
  'POST /api/v1/calls/:id/hangup': { request: (b) => ({ params: { id: b.callId } }), foreign: 404 },
  'POST /api/v1/calls/:id/dtmf': { request: (b) => ({ params: { id: b.callId }, body: { digits: '1#' } }), foreign: 404 },
  'PUT /api/v1/calls/:id/media-figures': { request: (b) => ({ params: { id: b.callId }, body: MEDIA_FIGURES }), foreign: 404 },
  'GET /api/v1/calls/:id/media': { request: (b) => ({ params: { id: b.callId } }), foreign: 404 },
  'GET /api/v1/recordings': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/recordings/:id/audio': { request: (b) => ({ params: { id: b.recordingId } }), foreign: 404 },
  'DELETE /api/v1/recordings/:id': { request: (b) => ({ params: { id: b.recordingId } }), foreign: 404 },
  'GET /api/v1/storage': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/voicemail': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/voicemail/:id/audio': { request: (b) => ({ params: { id: b.voicemailId } }), foreign: 404 },
  'PATCH /api/v1/voicemail/:id': { request: (b) => ({ params: { id: b.voicemailId }, body: { heard: true } }), foreign: 404 },
  'DELETE /api/v1/voicemail/:id': { request: (b) => ({ params: { id: b.voicemailId } }), foreign: 404 },
  'GET /api/v1/voicemail/greeting': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/voicemail/greeting/audio': { request: () => ({}), foreign: SESSION_OWN },
  'PUT /api/v1/voicemail/greeting': { request: () => ({ body: Buffer.from('not audio') }), foreign: SESSION_OWN },
  'DELETE /api/v1/voicemail/greeting': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/subscription': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/subscription/minutes': { request: () => ({}), foreign: SESSION_OWN },
  'GET /api/v1/support': { request: () => ({}), foreign: SESSION_OWN },
  'POST /api/v1/support': { request: () => ({ body: { subject: 'Help', message: 'Something is not working.' } }), foreign: ownOnly('sends from the signed-in account') },
  'POST /api/v1/payments': { request: () => ({ body: { planType: 'premium' } }), foreign: ownOnly('pays for the signed-in account') },
  'POST /api/v1/payments/:reference/verify': { request: (b) => ({ params: { reference: b.reference } }), foreign: 404 },
  'GET /api/v1/payments/:reference/receipt': { request: (b) => ({ params: { reference: b.reference } }), foreign: 404 },
  'GET /api/v1/admin/calls': { request: () => ({}), foreign: ADMIN_ONLY },
  'GET /api/v1/admin/instances': { request: () => ({}), foreign: ADMIN_ONLY },
  'GET /api/v1/admin/payments': { request: () => ({}), foreign: ADMIN_ONLY },
  'POST /api/v1/admin/calls/:callId/end': { request: (b) => ({ params: { callId: b.callId } }), foreign: ADMIN_ONLY },
  'POST /functions/v1/vonage-phone': {
    request: (b) => ({ body: { action: 'listUserNumbers', payload: { userId: b.userId } } }),
    foreign: { status: 403, why: "the seed's userId field naming someone else is refused as forbidden (docs/product.md §7)" },
  },
  'POST /functions/v1/swift-payment': { request: (b) => ({ body: { action: 'verifyPayment', payload: { reference: b.reference } } }), foreign: 404 },
};

const ORIGIN = 'http://localhost:3000';
const FOREIGN_ORIGIN = 'https://attacker.example';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let testApp: TestApp;
let routes: Route[];
let wsBase: string;
let userA: TestBrowser;
let userB: TestBrowser;
let b: Resources;

beforeAll(async () => {
  ({ testApp, routes } = await buildAppWithRouteTable());
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  const { app } = testApp;
  userA = (await newSignedInUser(app, 'User A')).browser;
  const signedInB = await newSignedInUser(app, 'User B');
  userB = signedInB.browser;

  const contact = await userB.post('/api/v1/contacts', { name: 'Bee', phoneNumber: '+14155552671' });
  expect(contact.statusCode, contact.body).toBe(201);
  const phoneNumber = await rentANumber(userB);
  const numbers = await userB.get('/api/v1/numbers');
  const { soundTestNumber } = (await userB.get('/api/v1/calls/lines')).json();
  const call = await userB.post('/api/v1/calls', { from: phoneNumber, to: soundTestNumber });
  expect(call.statusCode, call.body).toBe(201);
  const callId = call.json().call.id as string;
  expect((await userB.post(`/api/v1/calls/${callId}/hangup`)).statusCode).toBe(200);
  const payment = await userB.post('/api/v1/payments', { planType: 'premium' });
  expect(payment.statusCode, payment.body).toBe(201);
  // A recording of B's call, as the recorder leaves it (its file is not needed: A never gets that far).
  const recordingId = randomUUID();
  await testApp.database.db.insert(recordings).values({
    id: recordingId,
    userId: signedInB.userId,
    callId,
    objectKey: recordingKey(signedInB.userId, recordingId),
    state: 'saved',
    retainUntil: new Date(Date.now() + 86_400_000),
  });
  // A message left for B (its file is not needed either).
  const voicemailId = randomUUID();
  await testApp.database.db.insert(voicemails).values({
    id: voicemailId,
    userId: signedInB.userId,
    fromNumber: '+12125550123',
    toNumber: phoneNumber,
    objectKey: `voicemail/${signedInB.userId}/${voicemailId}.ogg`,
    state: 'saved',
    retainUntil: new Date(Date.now() + 86_400_000),
  });

  b = {
    userId: signedInB.userId,
    contactId: contact.json().id,
    numberId: numbers.json().numbers[0].id,
    phoneNumber,
    callId,
    reference: payment.json().reference,
    recordingId,
    voicemailId,
  };
});
afterAll(() => testApp.close());

/** The fixture of a route; HEAD routes, which Fastify adds for every GET, share their GET's. */
const fixtureOf = (route: Route) => fixtures[routeName({ method: route.method === 'HEAD' ? 'GET' : route.method, url: route.url })];

function requestFor(route: Route, fixture: Fixture) {
  const { params = {}, query, body } = fixture.request?.(b) ?? {};
  return { url: `${fillParams(route.url, params)}${query ? `?${query}` : ''}`, body };
}

async function send(route: Route, browser: TestBrowser | null, origin = ORIGIN) {
  const fixture = fixtureOf(route)!;
  const { url, body } = requestFor(route, fixture);
  if (route.websocket && route.method === 'GET') {
    return tryUpgrade(`${wsBase}${url}`, { origin, ...(browser ? { cookie: cookieHeader(browser.cookies) } : {}) });
  }
  const response = await testApp.app.inject({
    method: route.method as 'GET',
    url,
    headers: { origin, ...(browser ? { cookie: cookieHeader(browser.cookies) } : {}) },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return response;
}

const statusOf = (answer: Awaited<ReturnType<typeof send>>): string =>
  'statusCode' in answer ? String(answer.statusCode) : describeUpgrade(answer as UpgradeOutcome);

const describeUpgrade = (outcome: UpgradeOutcome) => ('refused' in outcome ? String(outcome.refused) : 'closed' in outcome ? `socket closed ${outcome.closed}` : 'socket open');

const protectedRoutes = () => routes.filter((route) => !('public' in fixtureOf(route)!));

describe('the authorization matrix', () => {
  it('has a fixture for every API route and websocket, and none for a route that is gone', () => {
    const missing = routes.filter((route) => !fixtureOf(route)).map(routeName);
    expect(missing, 'routes without a fixture in tests/security/authorization-matrix.test.ts').toEqual([]);
    const names = new Set(routes.map(routeName));
    expect(Object.keys(fixtures).filter((name) => !names.has(name)), 'fixtures for routes the app no longer has').toEqual([]);
    expect(routes.filter((route) => route.websocket && route.method === 'GET').map(routeName).sort()).toEqual([
      'GET /api/v1/calls/:id/media',
      'GET /api/v1/providers/vonage/media',
      'GET /api/v1/realtime',
    ]);
  });

  it('marks exactly the public routes public in their route options', () => {
    const mismatched = routes
      .filter((route) => route.method !== 'HEAD')
      .filter((route) => 'public' in fixtureOf(route)! !== Boolean(route.options.config?.public))
      .map(routeName);
    expect(mismatched).toEqual([]);
  });

  it('answers 401 without a session on every other route', async () => {
    const wrong: string[] = [];
    for (const route of protectedRoutes()) {
      const answer = await send(route, null);
      const status = statusOf(answer);
      if (status !== '401') wrong.push(`${routeName(route)} → ${status}`);
      else if ('json' in answer && route.method !== 'HEAD') expect(answer.json().error.code, routeName(route)).toBe('unauthenticated');
    }
    expect(wrong).toEqual([]);
  });

  it("answers 404 to user A for each of user B's things", async () => {
    const wrong: string[] = [];
    for (const route of protectedRoutes().filter((r) => r.method !== 'HEAD')) {
      const fixture = fixtureOf(route)!;
      if ('public' in fixture || (typeof fixture.foreign === 'object' && 'ownOnly' in fixture.foreign)) continue;
      const expected = fixture.foreign === 404 ? 404 : fixture.foreign.status;
      const answer = await send(route, userA);
      // A media socket is upgraded before the call is looked up: refused then with 4404, "no such call".
      const status = statusOf(answer);
      const ok = route.websocket ? status === `socket closed 4${expected}` || status === String(expected) : status === String(expected);
      if (!ok) wrong.push(`${routeName(route)} → ${status}, expected ${expected}`);
    }
    expect(wrong).toEqual([]);

    // Nothing of B's changed.
    const contacts = (await userB.get('/api/v1/contacts')).json().contacts as { id: string; name: string }[];
    expect(contacts.find((contact) => contact.id === b.contactId)?.name).toBe('Bee');
    const numbers = (await userB.get('/api/v1/numbers')).json().numbers as { id: string; friendlyName: string | null }[];
    expect(numbers.find((number) => number.id === b.numberId)?.friendlyName).toBeNull();
    const kept = (await userB.get('/api/v1/recordings')).json().recordings as { id: string }[];
    expect(kept.map((recording) => recording.id)).toContain(b.recordingId);
  });

  it('refuses a foreign Origin with 403 on every state-changing route and browser websocket', async () => {
    const wrong: string[] = [];
    // Signing out last: it would end user B's session for the routes after it, were it let through.
    const candidates = routes
      .filter((route) => STATE_CHANGING.has(route.method) || (route.websocket && route.method === 'GET'))
      .filter((route) => routeName(route) !== 'GET /api/v1/providers/vonage/media')
      .sort((one, two) => Number(one.url.endsWith('/sign-out')) - Number(two.url.endsWith('/sign-out')));
    for (const route of candidates) {
      const status = statusOf(await send(route, userB, FOREIGN_ORIGIN));
      if (status !== '403') wrong.push(`${routeName(route)} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });
});
