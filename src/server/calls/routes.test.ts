import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dominantFrequency, rms } from '../../../tests/support/dsp/analysis';
import { signWebhook } from '../../../tests/fakes/vonage/vonage-voice-fake';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { calls } from './schema';

const SOUND_TEST = '+14155550100';
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { outsideAnswerDelayMs: 200, echoDelayMs: 100, mediaConnectTimeoutMs: 3_000 } });
  const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = address.replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function caller() {
  const user = await newSignedInUser(testApp.app);
  const number = await rentANumber(user.browser);
  return { ...user, number };
}

async function callRow(id: string) {
  const [row] = await testApp.database.db.select().from(calls).where(eq(calls.id, id));
  return row!;
}

describe('POST /api/v1/calls', () => {
  it('needs a session', async () => {
    const response = await new TestBrowser(testApp.app).post('/api/v1/calls', { from: '+14155550123', to: SOUND_TEST });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe('Please log in to make calls');
  });

  it.each([
    ['a blank number', { to: ' ' }, 'to', 'to: Phone number required'],
    ['an invalid number', { to: '+999' }, 'to', 'Enter a valid phone number to call'],
    ['a number without its + (the API takes E.164 only)', { to: SOUND_TEST.slice(1) }, 'to', 'Enter a valid phone number to call'],
    ['a number of the wrong type', { to: 4155550100 }, 'to', undefined],
    ['a from number that is not the user’s', { from: '+14155550199' }, 'from', 'No phone number available'],
    ['an unknown field', { record: true }, undefined, undefined],
  ])('refuses %s with 400, creating no call', async (_label, change, field, message) => {
    const { browser, number, userId } = await caller();
    const response = await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST, ...change });
    expect(response.statusCode, response.body).toBe(400);
    if (field) expect(response.json().error.field).toBe(field);
    if (message) expect(response.json().error.message).toBe(message);
    expect(await testApp.database.db.select().from(calls).where(eq(calls.userId, userId))).toHaveLength(0);
  });

  it('refuses a second call while one is in progress', async () => {
    const { browser, number } = await caller();
    const first = await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST });
    expect(first.statusCode).toBe(201);
    const second = await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toEqual({ code: 'call_in_progress', message: 'Please end the current call before starting a new one' });
    await browser.post(`/api/v1/calls/${first.json().call.id}/hangup`);
  });
});

describe('a call to the sound-test line', () => {
  it('is answered at once and plays back the caller’s audio; hanging up ends the record', async () => {
    const { browser, number } = await caller();
    const placed = await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST });
    expect(placed.statusCode, placed.body).toBe(201);
    const { call, mediaPath, sampleRate } = placed.json();
    expect(call).toMatchObject({ direction: 'outbound', from: number, to: SOUND_TEST, state: 'answered' });
    expect(sampleRate).toBe(16_000);

    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies));
    // Frames of another size, and text, are dropped without harming the call.
    media.socket.send(Buffer.alloc(100));
    media.socket.send('hello');
    let muted = false;
    media.sendTone(440, 16_000, () => muted);
    await until(() => media.received.length >= 40);
    const heard = media.audio(10);
    expect(dominantFrequency(heard, 16_000)).toBeCloseTo(440, 0);
    expect(rms(heard)).toBeGreaterThan(0.3);

    // Muted: the server passes silence on, whatever the browser still sends.
    const realtime = new WebSocket(`${wsBase}/api/v1/realtime`, { headers: { cookie: cookieHeader(browser.cookies), origin: 'http://localhost:3000' } });
    await new Promise((resolve) => realtime.once('open', resolve));
    realtime.send(JSON.stringify({ type: 'call.mute', callId: call.id, muted: true }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterMute = media.received.length;
    await until(() => media.received.length >= afterMute + 20);
    expect(rms(media.audio(afterMute + 8))).toBe(0);
    muted = true;

    const ended = await browser.post(`/api/v1/calls/${call.id}/hangup`);
    expect(ended.json()).toMatchObject({ state: 'ended', outcome: 'completed' });
    expect(ended.json().durationSec).toBeGreaterThanOrEqual(0);
    await media.closed;
    realtime.close();
  });

  it('ends the record when the browser’s media socket drops', async () => {
    const { browser, number } = await caller();
    const { call, mediaPath } = (await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).json();
    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies));
    media.socket.terminate();
    await until(async () => (await callRow(call.id)).state === 'ended');
    expect(await callRow(call.id)).toMatchObject({ outcome: 'completed', reason: 'The connection to your browser was lost' });
    // The slot is free again.
    expect((await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).statusCode).toBe(201);
  });

  it('uses 8 kHz frames in Low Data Mode', async () => {
    const { browser, number } = await caller();
    await browser.patch('/api/v1/preferences', { dataUsage: true });
    const { mediaPath, sampleRate, call } = (await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).json();
    expect(sampleRate).toBe(8_000);
    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies));
    media.sendTone(440, 8_000);
    await until(() => media.received.length >= 30);
    expect(media.received.every((frame) => frame.length === 160)).toBe(true);
    expect(dominantFrequency(media.audio(10), 8_000)).toBeCloseTo(440, 0);
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });
});

describe('a call to an outside number on the virtual carrier', () => {
  it('rings, is answered after a moment with an echo, and shows in history with its duration', async () => {
    const { browser, number } = await caller();
    const { call, mediaPath } = (await browser.post('/api/v1/calls', { from: number, to: '+442079460958' })).json();
    expect(call.state).toBe('ringing');
    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies));
    media.sendTone(300, 16_000);
    await until(async () => (await callRow(call.id)).state === 'answered');
    await until(() => media.received.length >= 30);
    expect(dominantFrequency(media.audio(5), 16_000)).toBeCloseTo(300, 0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    media.close();
    await until(async () => (await callRow(call.id)).state === 'ended');

    const history = (await browser.get('/api/v1/calls')).json().calls;
    expect(history[0]).toMatchObject({ id: call.id, to: '+442079460958', state: 'ended', outcome: 'completed' });
    expect(history[0].durationSec).toBeGreaterThanOrEqual(1);
    expect((await callRow(call.id)).metered).toBe(true);
  });

  it('is cancelled when the caller hangs up while it rings', async () => {
    const slow = await buildTestApp({ mailer: capturingMailer(), callTiming: { outsideAnswerDelayMs: 10_000 } });
    try {
      const user = await newSignedInUser(slow.app);
      const number = await rentANumber(user.browser);
      const { call } = (await user.browser.post('/api/v1/calls', { from: number, to: '+442079460958' })).json();
      const hungUp = await user.browser.post(`/api/v1/calls/${call.id}/hangup`);
      expect(hungUp.json()).toMatchObject({ state: 'ended', outcome: 'cancelled', durationSec: 0 });
    } finally {
      await slow.close();
    }
  });
});

describe('call records', () => {
  it('belong to their user: another user gets 404 and cannot join the audio', async () => {
    const ada = await caller();
    const bob = await caller();
    const { call, mediaPath } = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: SOUND_TEST })).json();
    expect((await bob.browser.get(`/api/v1/calls/${call.id}`)).statusCode).toBe(404);
    expect((await bob.browser.post(`/api/v1/calls/${call.id}/hangup`)).statusCode).toBe(404);
    const intruder = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(bob.browser.cookies));
    expect(await intruder.closed).toBe(4404);
    expect((await bob.browser.get('/api/v1/calls')).json().calls).toEqual([]);
    expect((await ada.browser.get(`/api/v1/calls/${call.id}`)).json().state).toBe('answered');
    await ada.browser.post(`/api/v1/calls/${call.id}/hangup`);
  });

  it('refuses the media socket without a session', async () => {
    const ada = await caller();
    const { mediaPath, call } = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: SOUND_TEST })).json();
    await expect(MediaClient.connect(`${wsBase}${mediaPath}`, '')).rejects.toThrow('upgrade refused: 401');
    await ada.browser.post(`/api/v1/calls/${call.id}/hangup`);
  });

  it('leaves calls out of history while Save Call History is off, but keeps the record', async () => {
    const { browser, number, userId } = await caller();
    await browser.patch('/api/v1/preferences', { callHistory: false });
    const { call } = (await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).json();
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
    expect((await browser.get('/api/v1/calls')).json().calls).toEqual([]);
    expect(await testApp.database.db.select().from(calls).where(eq(calls.userId, userId))).toHaveLength(1);
  });
});

describe('the Vonage provider routes under TELEPHONY=local', () => {
  it('refuse every webhook and media socket', async () => {
    const body = JSON.stringify({ uuid: 'abc', status: 'answered' });
    const webhook = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/providers/vonage/events?call=00000000-0000-4000-8000-000000000000',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signWebhook(body, 'any-secret')}` },
      payload: body,
    });
    expect(webhook.statusCode).toBe(404);
    expect(webhook.json().error.message).toBe('Vonage is not this server’s telephony provider');
    await expect(MediaClient.connect(`${wsBase}/api/v1/providers/vonage/media?token=anything`, '')).rejects.toThrow('upgrade refused: 404');
  });
});

describe('a call’s media socket carrying Opus', () => {
  it('plays the sound-test line’s echo back as Opus; an oversized message and garbage are dropped and the call goes on', async () => {
    const { browser, number } = await caller();
    const { call, mediaPath } = (await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).json();
    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies), 'opus');
    media.socket.send(Buffer.alloc(2000, 0x78));
    media.socket.send(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 40);
    expect(media.undecodable).toBe(0);
    // Opus at 32 kbit/s is about 80 bytes a packet; a PCM frame would be 640.
    expect(media.bytesReceived / media.received.length).toBeLessThan(200);
    expect(media.received.every((frame) => frame.length === 320)).toBe(true);
    expect(dominantFrequency(media.audio(15), 16_000)).toBeCloseTo(440, 0);
    expect((await callRow(call.id)).state).toBe('answered');
    await until(async () => (await callRow(call.id)).mediaTransport === 'websocket-opus');
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
    await media.closed;
  });

  it('keeps Opus at 16 kHz in Low Data Mode', async () => {
    const { browser, number } = await caller();
    await browser.patch('/api/v1/preferences', { dataUsage: true });
    const { mediaPath, sampleRate, call } = (await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).json();
    expect(sampleRate).toBe(8_000);
    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies), 'opus');
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 40);
    expect(media.received.every((frame) => frame.length === 320)).toBe(true);
    expect(dominantFrequency(media.audio(15), 16_000)).toBeCloseTo(440, 0);
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });

  it('refuses an unknown codec with 4400, leaving the call as it was', async () => {
    const { browser, number } = await caller();
    const { call, mediaPath } = (await browser.post('/api/v1/calls', { from: number, to: SOUND_TEST })).json();
    const refused = await MediaClient.connect(`${wsBase}${mediaPath}?codec=flac`, cookieHeader(browser.cookies));
    expect(await refused.closed).toBe(4400);
    expect(refused.closeReason).toBe('Unknown audio codec: flac');
    expect((await callRow(call.id)).state).toBe('answered');
    const media = await MediaClient.connect(`${wsBase}${mediaPath}`, cookieHeader(browser.cookies), 'opus');
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 10);
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });
});
