import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newSignedInUser, rentANumber, TEST_PASSWORD } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, linkIn, TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { calls } from '../calls/schema';
import { SIGNED_OUT_CLOSE } from './session-sockets';

const NEW_PASSWORD = 'quartz lantern orbit 4417';

/** How a socket closed, once it has; watched from the moment it is called. */
function closeOf(socket: WebSocket) {
  return new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** The close, which must come within `ms` of the revocation's answer (the server closes before it answers). */
async function closedWithin(closing: Promise<{ code: number; reason: string }>, ms = 1_000) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`still open ${ms} ms after the revocation`)), ms)));
  try {
    return await Promise.race([closing, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A tab whose socket still works: it answers a message the server cannot read. */
async function stillAnswers(tab: RealtimeTab) {
  const from = tab.messages.length;
  tab.send({ type: 'not a message' });
  await until(() => tab.messages.slice(from).some((message) => message.type === 'error'));
  return tab.socket.readyState === WebSocket.OPEN;
}

/** Another browser signed in to the same account: a second session. */
async function secondSession(app: TestApp['app'], email: string, password = TEST_PASSWORD) {
  const browser = new TestBrowser(app);
  const signIn = await browser.post('/api/v1/auth/sign-in', { email, password });
  expect(signIn.statusCode, signIn.body).toBe(200);
  return browser;
}

async function callRecord(testApp: TestApp, id: string) {
  const [row] = await testApp.database.db.select().from(calls).where(eq(calls.id, id));
  return row;
}

describe('revoking sessions closes their websockets', () => {
  const mailer = capturingMailer();
  let testApp: TestApp;
  let wsBase: string;

  beforeAll(async () => {
    testApp = await buildTestApp({ mailer, callTiming: { ringTimeoutMs: 5_000 } });
    wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  afterAll(() => testApp.close());

  /** A call to the sound-test line with its audio flowing on a media socket of `browser`'s session. */
  async function callInProgress(browser: TestBrowser) {
    const from = await rentANumber(browser);
    const placed = await browser.post('/api/v1/calls', { from, to: testApp.config.SOUND_TEST_NUMBER });
    expect(placed.statusCode, placed.body).toBe(201);
    const media = await MediaClient.connect(`${wsBase}${placed.json().mediaPath}`, cookieHeader(browser.cookies));
    media.sendTone(440, placed.json().sampleRate);
    await until(() => media.received.length > 5);
    return { callId: placed.json().call.id as string, media };
  }

  it('sign-out closes every socket of the user within 1 s, and their call ends with its record finalised', async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const laptop = await secondSession(testApp.app, email);
    const here = await RealtimeTab.open(wsBase, browser);
    const there = await RealtimeTab.open(wsBase, laptop);
    const { callId, media } = await callInProgress(browser);
    const stranger = await RealtimeTab.open(wsBase, (await newSignedInUser(testApp.app)).browser);
    const closing = [closeOf(here.socket), closeOf(there.socket), closeOf(media.socket)];

    expect((await browser.post('/api/v1/auth/sign-out')).statusCode).toBe(200);

    for (const close of closing) expect(await closedWithin(close)).toEqual({ code: SIGNED_OUT_CLOSE.code, reason: SIGNED_OUT_CLOSE.reason });
    await until(async () => (await callRecord(testApp, callId))?.state === 'ended');
    expect(await callRecord(testApp, callId)).toMatchObject({ state: 'ended', outcome: 'completed', reason: 'You were signed out' });
    expect(await stillAnswers(stranger)).toBe(true);
    stranger.socket.close();
  });

  it("a password change closes the other sessions' sockets and their call, and keeps the changer's", async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const phone = await secondSession(testApp.app, email);
    const changerTab = await RealtimeTab.open(wsBase, browser);
    const phoneTab = await RealtimeTab.open(wsBase, phone);
    const { callId, media } = await callInProgress(phone);
    const closing = [closeOf(phoneTab.socket), closeOf(media.socket)];

    const changed = await browser.post('/api/v1/account/password', { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);

    for (const close of closing) expect((await closedWithin(close)).code).toBe(SIGNED_OUT_CLOSE.code);
    // The changer's tab is told the call ended, and goes on working.
    expect(await changerTab.next('call.ended')).toMatchObject({ callId, outcome: 'completed', reason: 'You were signed out' });
    expect(await stillAnswers(changerTab)).toBe(true);
    expect(await callRecord(testApp, callId)).toMatchObject({ state: 'ended', reason: 'You were signed out' });
    // The changer's browser carries the session the change signed in, and can open new sockets.
    const reopened = await RealtimeTab.open(wsBase, browser);
    expect(await stillAnswers(reopened)).toBe(true);
    for (const tab of [changerTab, reopened]) tab.socket.close();
  });

  it('a password reset closes every socket of the user, and their call ends', async () => {
    const { browser, email } = await newSignedInUser(testApp.app);
    const tab = await RealtimeTab.open(wsBase, browser);
    const { callId, media } = await callInProgress(browser);
    const closing = [closeOf(tab.socket), closeOf(media.socket)];

    const stranger = new TestBrowser(testApp.app);
    expect((await stranger.post('/api/v1/auth/password-reset', { email })).statusCode).toBe(200);
    const token = linkIn(mailer.lastTo(email)).searchParams.get('token');
    const reset = await stranger.post('/api/v1/auth/password-reset/confirm', { token, newPassword: NEW_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(200);

    for (const close of closing) expect((await closedWithin(close)).code).toBe(SIGNED_OUT_CLOSE.code);
    await until(async () => (await callRecord(testApp, callId))?.state === 'ended');
    expect(await callRecord(testApp, callId)).toMatchObject({ outcome: 'completed', reason: 'You were signed out' });
  });

  it('a callee signing out ends a call between users, and the caller is told why', async () => {
    const ada = await newSignedInUser(testApp.app, 'Ada Caller');
    const adaNumber = await rentANumber(ada.browser);
    const bob = await newSignedInUser(testApp.app, 'Bob Callee');
    const bobNumber = await rentANumber(bob.browser);
    const adaTab = await RealtimeTab.open(wsBase, ada.browser);
    const bobTab = await RealtimeTab.listening(wsBase, bob.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: adaNumber, to: bobNumber })).json();
    const incoming = await bobTab.next('call.incoming');
    bobTab.send({ type: 'call.answer', callId: incoming.callId });
    await bobTab.next('call.state');
    const adaMedia = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    const bobMedia = await MediaClient.connect(`${wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(bob.browser.cookies));
    const bobClosing = closeOf(bobMedia.socket);

    expect((await bob.browser.post('/api/v1/auth/sign-out')).statusCode).toBe(200);

    expect((await closedWithin(bobClosing)).code).toBe(SIGNED_OUT_CLOSE.code);
    expect(await adaTab.next('call.ended')).toMatchObject({ callId: placed.call.id, outcome: 'completed', reason: 'The other person was signed out' });
    await adaMedia.closed;
    await until(async () => (await callRecord(testApp, incoming.callId))?.state === 'ended');
    expect(await callRecord(testApp, incoming.callId)).toMatchObject({ outcome: 'completed', reason: 'You were signed out' });
    adaTab.socket.close();
  });
});

const shared = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);

/** Two instances behind a load balancer: one PostgreSQL database, one Redis. */
describe.skipIf(!shared)('revoking sessions across two instances', () => {
  let one: TestApp;
  let two: TestApp;
  let wsOne: string;

  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    one = await buildTestApp({ env, mailer: capturingMailer() });
    two = await buildTestApp({ env, mailer: capturingMailer(), database: one.database });
    wsOne = (await one.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    await two.app.ready();
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('signing out through instance 2 closes the tabs on instance 1 and ends the call whose audio it relays', async () => {
    const { browser: onTwo } = await newSignedInUser(two.app);
    const from = await rentANumber(onTwo);
    // The call lives on instance 2; its media socket and the tab reach instance 1.
    const placed = await onTwo.post('/api/v1/calls', { from, to: two.config.SOUND_TEST_NUMBER });
    expect(placed.statusCode, placed.body).toBe(201);
    const media = await MediaClient.connect(`${wsOne}${placed.json().mediaPath}`, cookieHeader(onTwo.cookies));
    media.sendTone(440, placed.json().sampleRate);
    await until(() => media.received.length > 5, 10_000);
    const tab = await RealtimeTab.open(wsOne, onTwo);
    const closing = [closeOf(tab.socket), closeOf(media.socket)];

    expect((await onTwo.post('/api/v1/auth/sign-out')).statusCode).toBe(200);

    for (const close of closing) expect((await closedWithin(close)).code).toBe(SIGNED_OUT_CLOSE.code);
    const callId = placed.json().call.id as string;
    await until(async () => (await callRecord(one, callId))?.state === 'ended');
    expect(await callRecord(one, callId)).toMatchObject({ outcome: 'completed', reason: 'You were signed out' });
  });
});
