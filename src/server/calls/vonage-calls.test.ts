import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dominantFrequency, rms } from '../../../tests/support/dsp/analysis';
import type { VonageNumbersFake } from '../../../tests/fakes/vonage/vonage-numbers-fake';
import { FAKE_SIGNATURE_SECRET, signWebhook, type FakeVoiceCall, type VonageVoiceFake } from '../../../tests/fakes/vonage/vonage-voice-fake';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { APPLICATION_ID, startVonageFakes, startVonageServer, voiceNumbers, type VonageServer } from '../../../tests/support/vonage-test-server';
import type { TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { calls } from './schema';

// A whole call under TELEPHONY=vonage: the SDK places it on the Voice API fake, which rings, sends
// signed event webhooks, and once answered opens the NCCO's websocket to this server like Vonage.
const OUTSIDE = '+442079460958';

let numbersFake: VonageNumbersFake;
let voiceFake: VonageVoiceFake;
/** The call timers of docs/calls.md (30 s of ringing), but a short wait for the call's audio. */
let server: VonageServer;
/** Ringing gives up after a second, for the tests of what happens then. */
let quick: VonageServer;
const QUICK_RING_TIMEOUT_MS = 1_000;
const QUICK_PROVIDER_GRACE_MS = 500;

beforeAll(async () => {
  // Each test's caller rents a number of their own.
  ({ numbersFake, voiceFake } = await startVonageFakes(voiceNumbers('14152007', 30)));
  server = await startVonageServer({ numbersFake, voiceFake }, { mediaConnectTimeoutMs: 3_000 });
  quick = await startVonageServer({ numbersFake, voiceFake }, { ringTimeoutMs: QUICK_RING_TIMEOUT_MS, providerGraceMs: QUICK_PROVIDER_GRACE_MS });
});
afterAll(async () => {
  await server?.testApp.close();
  await quick?.testApp.close();
  await voiceFake?.close();
  await numbersFake?.close();
});

async function caller(on = server) {
  const user = await newSignedInUser(on.testApp.app);
  const number = await rentANumber(user.browser);
  return { ...user, number };
}

async function callRow(id: string, on = server) {
  const [row] = await on.testApp.database.db.select().from(calls).where(eq(calls.id, id));
  return row!;
}

/** Places a call to OUTSIDE, connects the browser's audio as the dialer does, and takes the fake's end once it rings. */
async function placeCall(browser: TestBrowser, from: string, on = server) {
  const placed = await browser.post('/api/v1/calls', { from, to: OUTSIDE });
  expect(placed.statusCode, placed.body).toBe(201);
  const result = placed.json() as { call: { id: string; state: string }; mediaPath: string; sampleRate: number };
  const media = await MediaClient.connect(`${on.wsBase}${result.mediaPath}`, cookieHeader(browser.cookies));
  const far = await voiceFake.nextCall();
  await far.delivered();
  return { ...result, media, far };
}

const hangupsOf = (far: FakeVoiceCall) => voiceFake.requestsTo('PUT', `/v1/calls/${far.uuid}`).map((request) => request.body);

function listenRealtime(browser: TestBrowser) {
  const messages: { type: string; [field: string]: unknown }[] = [];
  const socket = new WebSocket(`${server.wsBase}/api/v1/realtime`, { headers: { cookie: cookieHeader(browser.cookies), origin: 'http://localhost:3000' } });
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as (typeof messages)[number]));
  return { messages, opened: new Promise((resolve) => socket.once('open', resolve)), close: () => socket.close() };
}

function postEvent(callId: string, body: string, authorization?: string) {
  return server.testApp.app.inject({
    method: 'POST',
    url: `/api/v1/providers/vonage/events?call=${callId}`,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    payload: body,
  });
}

function eventBody(far: FakeVoiceCall, status: string) {
  return JSON.stringify({ from: far.request.from?.number, to: far.request.to[0]?.number, uuid: far.uuid, conversation_uuid: far.conversationUuid, status, direction: 'outbound', timestamp: new Date().toISOString() });
}

async function connectRefused(url: string): Promise<number> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => {
      socket.close();
      reject(new Error('the media socket was accepted'));
    });
    socket.once('error', reject);
  });
}

describe('a call through Vonage', () => {
  it('rings, is answered, carries audio both ways, and ends when the caller hangs up', async () => {
    const { browser, number } = await caller();
    const realtime = listenRealtime(browser);
    await realtime.opened;
    const { call, media, far } = await placeCall(browser, number);
    expect(call.state).toBe('ringing');

    // The create-call request: JWT from the application's key, the NCCO connecting our socket at 16 kHz.
    const [create] = voiceFake.requestsTo('POST', '/v1/calls');
    expect(create!.authProblem).toBeNull();
    expect(far.request).toMatchObject({
      to: [{ type: 'phone', number: OUTSIDE.slice(1) }],
      from: { type: 'phone', number: number.slice(1) },
      event_url: [`${server.origin}/api/v1/providers/vonage/events?call=${call.id}`],
      ringing_timer: 30,
    });
    expect(far.request.ncco).toEqual([
      {
        action: 'connect',
        endpoint: [
          {
            type: 'websocket',
            uri: expect.stringMatching(new RegExp(`^${server.wsBase}/api/v1/providers/vonage/media\\?token=[\\w-]{43}$`)),
            'content-type': 'audio/l16;rate=16000',
            headers: { callId: call.id },
          },
        ],
      },
    ]);
    expect(far.events).toEqual([
      { status: 'started', answeredWith: 200 },
      { status: 'ringing', answeredWith: 200 },
    ]);
    expect(await callRow(call.id)).toMatchObject({ state: 'ringing', providerCallId: far.uuid, metered: true });

    media.sendTone(440, 16_000);
    await far.answer(600);
    await until(async () => (await callRow(call.id)).state === 'answered');
    await until(() => far.received.length >= 40 && media.received.length >= 40);

    // The phone hears the caller's 440 Hz, the caller hears the phone's 600 Hz, in 640-byte frames.
    expect(dominantFrequency(far.audio(10), 16_000)).toBeCloseTo(440, 0);
    expect(rms(far.audio(10))).toBeGreaterThan(0.3);
    expect(dominantFrequency(media.audio(10), 16_000)).toBeCloseTo(600, 0);
    expect(far.wrongSizeFrames).toBe(0);
    expect(media.received.every((frame) => frame.length === 320)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const ended = await browser.post(`/api/v1/calls/${call.id}/hangup`);
    expect(ended.json()).toMatchObject({ state: 'ended', outcome: 'completed', reason: null });
    expect(ended.json().durationSec).toBeGreaterThanOrEqual(1);

    // Hung up at Vonage with the API, not only by closing the socket.
    await until(() => hangupsOf(far).length > 0);
    expect(hangupsOf(far)).toEqual([{ action: 'hangup' }]);
    await until(() => far.isOver);
    expect(far.status).toBe('completed');
    await media.closed;
    await until(() => realtime.messages.some((message) => message.type === 'call.ended'));
    expect(realtime.messages.map((message) => [message.type, message.state ?? message.outcome])).toEqual([
      ['call.state', 'ringing'],
      ['call.state', 'answered'],
      ['call.ended', 'completed'],
    ]);
    realtime.close();
  });

  it('ends with the duration when the far side hangs up, and tells the caller', async () => {
    const { browser, number } = await caller();
    const { call, media, far } = await placeCall(browser, number);
    media.sendTone(440, 16_000);
    await far.answer();
    await until(() => media.received.length >= 10);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await far.hangUp();

    await until(async () => (await callRow(call.id)).state === 'ended');
    const row = await callRow(call.id);
    expect(row).toMatchObject({ outcome: 'completed', reason: null });
    expect(row.durationSec).toBeGreaterThanOrEqual(1);
    await media.closed;
    expect(far.events.at(-1)).toEqual({ status: 'completed', answeredWith: 200 });
    // The slot is free again.
    const next = await placeCall(browser, number);
    await browser.post(`/api/v1/calls/${next.call.id}/hangup`);
  });

  it('converts between a Low Data Mode browser (8 kHz) and Vonage (16 kHz)', async () => {
    const { browser, number } = await caller();
    await browser.patch('/api/v1/preferences', { dataUsage: true });
    const { call, media, sampleRate, far } = await placeCall(browser, number);
    expect(sampleRate).toBe(8_000);
    media.sendTone(440, 8_000);
    await far.answer(600);
    await until(() => far.received.length >= 40 && media.received.length >= 40);
    expect(dominantFrequency(far.audio(10), 16_000)).toBeCloseTo(440, 0);
    expect(media.received.every((frame) => frame.length === 160)).toBe(true);
    expect(dominantFrequency(media.audio(10), 8_000)).toBeCloseTo(600, 0);
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });
});

describe('calls that do not connect', () => {
  it.each([
    ['busy', (far: FakeVoiceCall) => far.busy(), 'busy', 'The line is busy'],
    ['declined', (far: FakeVoiceCall) => far.reject('declined'), 'rejected', 'The call was declined'],
    ['failed', (far: FakeVoiceCall) => far.fail('number_out_of_service'), 'failed', 'That number is out of service'],
    ['unanswered', (far: FakeVoiceCall) => far.unanswered('unavailable'), 'no-answer', 'Nobody answered'],
  ])('%s at Vonage ends the record with that outcome and hangs up nothing', async (_label, script, outcome, reason) => {
    const { browser, number } = await caller();
    const { call, far } = await placeCall(browser, number);
    await script(far);
    expect(far.events.at(-1)!.answeredWith).toBe(200);
    const record = (await browser.get(`/api/v1/calls/${call.id}`)).json();
    expect(record).toMatchObject({ state: 'ended', outcome, reason, durationSec: 0, answeredAt: null });
    expect(hangupsOf(far)).toEqual([]);
  });

  it('is no-answer when nobody picks up before the ring timeout (Vonage’s timeout event)', async () => {
    const { browser, number } = await caller(quick);
    const { call, far } = await placeCall(browser, number, quick);
    expect(far.request.ringing_timer).toBe(QUICK_RING_TIMEOUT_MS / 1000);
    await until(() => far.status === 'timeout', QUICK_RING_TIMEOUT_MS + 2_000);
    await far.delivered();
    expect(await callRow(call.id, quick)).toMatchObject({ state: 'ended', outcome: 'no-answer', reason: 'Nobody answered' });
    expect(hangupsOf(far)).toEqual([]);
  });

  it('gives up and hangs up itself when Vonage’s no-answer event never comes', async () => {
    const { browser, number } = await caller(quick);
    voiceFake.ringsForever = true;
    const { call, far } = await placeCall(browser, number, quick).finally(() => {
      voiceFake.ringsForever = false;
    });
    await until(async () => (await callRow(call.id, quick)).state === 'ended', QUICK_RING_TIMEOUT_MS + QUICK_PROVIDER_GRACE_MS + 2_000);
    expect(await callRow(call.id, quick)).toMatchObject({ outcome: 'no-answer', reason: 'Nobody answered' });
    await until(() => far.isOver);
    expect(far.status).toBe('cancelled');
    expect(hangupsOf(far)).toEqual([{ action: 'hangup' }]);
  });

  it('is cancelled, and hung up at Vonage, when the caller hangs up while it rings', async () => {
    const { browser, number } = await caller();
    const { call, far } = await placeCall(browser, number);
    const hungUp = await browser.post(`/api/v1/calls/${call.id}/hangup`);
    expect(hungUp.json()).toMatchObject({ state: 'ended', outcome: 'cancelled', durationSec: 0 });
    await until(() => far.isOver);
    expect(far.status).toBe('cancelled');
    expect(hangupsOf(far)).toEqual([{ action: 'hangup' }]);
  });

  it('answers 502 with Vonage’s reason when Vonage refuses the call, leaving a failed record and a free slot', async () => {
    const { browser, number } = await caller();
    voiceFake.failNext('POST', '/v1/calls', {
      status: 402,
      body: { type: 'https://developer.nexmo.com/api-errors#low-balance', title: 'Low balance', detail: 'This request could not be performed due to your account balance being low.' },
    });
    const refused = await browser.post('/api/v1/calls', { from: number, to: OUTSIDE });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toEqual({
      code: 'provider_failed',
      message: 'Vonage answered 402: This request could not be performed due to your account balance being low.',
    });
    const [record] = (await browser.get('/api/v1/calls')).json().calls;
    expect(record).toMatchObject({ to: OUTSIDE, state: 'ended', outcome: 'failed', reason: refused.json().error.message });
    const next = await placeCall(browser, number);
    await browser.post(`/api/v1/calls/${next.call.id}/hangup`);
  });

  it('fails the call when the far side answers but Vonage’s socket never connects', async () => {
    const { browser, number } = await caller();
    const { call, far } = await placeCall(browser, number);
    // An answered event alone, as if the websocket never opened. The body is made once: it carries
    // a timestamp, and a second one made a millisecond later would not match the signature.
    const body = eventBody(far, 'answered');
    const answered = await postEvent(call.id, body, `Bearer ${signWebhook(body, FAKE_SIGNATURE_SECRET, { applicationId: APPLICATION_ID })}`);
    expect(answered.statusCode).toBe(200);
    expect(await callRow(call.id)).toMatchObject({ state: 'answered' });
    await until(async () => (await callRow(call.id)).state === 'ended', 5_000);
    expect(await callRow(call.id)).toMatchObject({ outcome: 'failed', reason: 'The phone network did not connect the call audio' });
    await until(() => far.isOver);
  });
});

describe('the event webhook', () => {
  it('refuses unsigned, forged, tampered, replayed, stale and foreign webhooks with 401, changing nothing', async () => {
    const { browser, number } = await caller();
    const { call, far } = await placeCall(browser, number);
    const answered = eventBody(far, 'answered');
    const ringing = eventBody(far, 'ringing');
    const sign = (body: string, claims = {}) => `Bearer ${signWebhook(body, FAKE_SIGNATURE_SECRET, { applicationId: APPLICATION_ID, ...claims })}`;

    const replayed = sign(ringing, { jti: randomUUID() });
    expect((await postEvent(call.id, ringing, replayed)).statusCode).toBe(200);

    const refusals: [string, string, string | undefined][] = [
      ['unsigned', answered, undefined],
      ['not a bearer token', answered, 'Basic ZmFrZTpmYWtl'],
      ['forged with another secret', answered, `Bearer ${signWebhook(answered, 'not-the-signature-secret', { applicationId: APPLICATION_ID })}`],
      ['signed for another body', answered, sign(ringing)],
      ['a replayed token', ringing, replayed],
      ['signed an hour ago', answered, sign(answered, { iat: Math.floor(Date.now() / 1000) - 3_600 })],
      ['for another application', answered, sign(answered, { applicationId: randomUUID() })],
      ['with alg none', answered, `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${sign(answered).split('.')[1]}.AAAA`],
    ];
    for (const [label, body, authorization] of refusals) {
      const response = await postEvent(call.id, body, authorization);
      expect(response.statusCode, label).toBe(401);
      expect(response.json().error, label).toEqual({ code: 'invalid_signature', message: 'The webhook signature could not be verified' });
    }
    expect(await callRow(call.id)).toMatchObject({ state: 'ringing', answeredAt: null, outcome: null });

    // Vonage's own events still go through.
    await far.busy();
    expect(await callRow(call.id)).toMatchObject({ state: 'ended', outcome: 'busy' });
  });

  it('acknowledges events of unknown calls and of the call’s other legs without acting on them', async () => {
    const { browser, number } = await caller();
    const { call, far } = await placeCall(browser, number);
    const otherLeg = JSON.stringify({ uuid: randomUUID(), status: 'completed', conversation_uuid: far.conversationUuid });
    const signed = (body: string) => `Bearer ${signWebhook(body, FAKE_SIGNATURE_SECRET, { applicationId: APPLICATION_ID })}`;
    expect((await postEvent(call.id, otherLeg, signed(otherLeg))).statusCode).toBe(200);
    const unknownCall = eventBody(far, 'completed');
    expect((await postEvent(randomUUID(), unknownCall, signed(unknownCall))).statusCode).toBe(200);
    expect((await callRow(call.id)).state).toBe('ringing');
    const noStatus = JSON.stringify({ uuid: far.uuid });
    expect((await postEvent(call.id, noStatus, signed(noStatus))).statusCode).toBe(400);
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });
});

describe('the provider media socket', () => {
  it('refuses a missing, wrong or already used token, and the token of an ended call', async () => {
    const { browser, number } = await caller();
    const { call, far } = await placeCall(browser, number);
    expect(await connectRefused(`${server.wsBase}/api/v1/providers/vonage/media`)).toBe(401);
    expect(await connectRefused(`${server.wsBase}/api/v1/providers/vonage/media?token=${'A'.repeat(43)}`)).toBe(401);

    await far.answer();
    await until(() => far.socket?.readyState === WebSocket.OPEN);
    expect(await connectRefused(far.websocketEndpoint.uri)).toBe(401);
    expect((await callRow(call.id)).state).toBe('answered');
    await browser.post(`/api/v1/calls/${call.id}/hangup`);

    const next = await placeCall(browser, number);
    await browser.post(`/api/v1/calls/${next.call.id}/hangup`);
    expect(await connectRefused(next.far.websocketEndpoint.uri)).toBe(401);
  });
});
