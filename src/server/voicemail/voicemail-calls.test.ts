import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, type TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { beepHeardBy, shareAt, toneWav } from '../../../tests/support/voicemail-audio';
import type { VoicemailReason } from '../../common/api/voicemail';
import { VOICEMAIL_BEEP } from '../media/voicemail-party';
import { calls } from '../calls/schema';
import { decodeOggOpus } from './ogg-opus-audio';
import { voicemails } from './schema';

// Ringing goes to voicemail after 1.5 s; a message may last 3 s here instead of 2 minutes.
const MAX_MESSAGE_MS = 3_000;
const GREETING_HZ = 300;

let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { ringTimeoutMs: 1_500, voicemailMaxMessageMs: MAX_MESSAGE_MS } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

/** A user with a number and a short greeting of their own (a 300 Hz tone), so that the beep comes soon. */
async function owner() {
  const user = await newSignedInUser(testApp.app);
  const number = await rentANumber(user.browser);
  const uploaded = await user.browser.request('PUT', '/api/v1/voicemail/greeting', toneWav({ hz: GREETING_HZ, seconds: 0.6 }), { 'content-type': 'audio/wav' });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  return { ...user, number };
}

async function caller() {
  const user = await newSignedInUser(testApp.app);
  return { ...user, number: await rentANumber(user.browser) };
}

const mediaOf = (browser: TestBrowser, path: string) => MediaClient.connect(`${wsBase}${path}`, cookieHeader(browser.cookies));

/**
 * The caller's side of a call voicemail answered: they hear the owner's greeting and the beep, say
 * a 440 Hz tone for `speakMs`, then hang up (unless the message's limit ends the call first).
 */
async function leaveMessage(callerBrowser: TestBrowser, callId: string, mediaPath: string, speakMs: number, hangUp = true) {
  const media = await mediaOf(callerBrowser, mediaPath);
  const beepAt = await beepHeardBy(media);
  expect(shareAt(media.received.slice(Math.max(0, beepAt - 20), beepAt - 12), GREETING_HZ)).toBeGreaterThan(0.8);
  expect(dominantFrequency(media.audio(beepAt).subarray(0, (16_000 * VOICEMAIL_BEEP.ms) / 1000), 16_000)).toBeCloseTo(VOICEMAIL_BEEP.hz, -1);
  media.sendTone(440, 16_000);
  await new Promise((resolve) => setTimeout(resolve, speakMs));
  if (hangUp) await callerBrowser.post(`/api/v1/calls/${callId}/hangup`);
  await media.closed;
}

async function missedRecord(userId: string) {
  const [row] = await testApp.database.db.select().from(calls).where(and(eq(calls.userId, userId), eq(calls.direction, 'inbound')));
  return row!;
}

describe('voicemail on calls between Voxline users', () => {
  it('takes a message when the owner is not listening: greeting, beep, ~2 s of 440 Hz stored, the owner told, the missed call linked', async () => {
    const bob = await owner();
    const ada = await caller();
    const bobTab = await RealtimeTab.open(wsBase, bob.browser);
    const adaTab = await RealtimeTab.open(wsBase, ada.browser);

    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    // The page may read the answer before the call.state: both say voicemail took it.
    expect(placed.call).toMatchObject({ state: 'answered', reason: 'Voicemail' });
    expect(await adaTab.next('call.state')).toMatchObject({ state: 'answered', reason: 'Voicemail' });
    await leaveMessage(ada.browser, placed.call.id, placed.mediaPath, 2_000);

    const news = await bobTab.next('voicemail.new');
    expect(news).toMatchObject({ from: ada.number });
    const list = (await bob.browser.get('/api/v1/voicemail')).json();
    expect(list.unheard).toBe(1);
    const [message] = list.voicemails;
    expect(message).toMatchObject({ id: news.voicemailId, from: ada.number, to: bob.number, heard: false });
    expect(['saved', 'pending_upload']).toContain(message.state);

    const audio = await bob.browser.get(`/api/v1/voicemail/${message.id}/audio`);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toContain('audio/ogg');
    const samples = decodeOggOpus(audio.rawPayload);
    expect(samples.length / 16_000).toBeGreaterThan(1.6);
    expect(samples.length / 16_000).toBeLessThan(2.6);
    expect(dominantFrequency(Float32Array.from(samples.subarray(4_000, 20_000), (s) => s / 32768), 16_000)).toBeCloseTo(440, 0);

    const missed = await missedRecord(bob.userId);
    expect(missed).toMatchObject({ state: 'ended', outcome: 'unavailable' });
    expect(message.callId).toBe(missed.id);
    const history = (await bob.browser.get('/api/v1/calls')).json().calls;
    expect(history[0]).toMatchObject({ id: missed.id, outcome: 'unavailable', voicemailId: message.id });
    expect((await ada.browser.get(`/api/v1/calls/${placed.call.id}`)).json()).toMatchObject({ state: 'ended', outcome: 'completed', reason: 'Voicemail' });
    expect(await adaTab.next('call.ended')).toMatchObject({ outcome: 'completed', reason: 'Voicemail' });
    bobTab.socket.close();
    adaTab.socket.close();
  });

  const reasons: [VoicemailReason, string, (bob: Awaited<ReturnType<typeof owner>>) => Promise<() => Promise<void>>][] = [
    [
      'no_answer',
      'no-answer',
      async (bob) => {
        const tab = await RealtimeTab.listening(wsBase, bob.browser);
        return async () => {
          await tab.next('call.incoming');
          expect(await tab.next('call.ended')).toMatchObject({ outcome: 'no-answer' });
          tab.socket.close();
        };
      },
    ],
    [
      'rejected',
      'rejected',
      async (bob) => {
        const tab = await RealtimeTab.listening(wsBase, bob.browser);
        return async () => {
          const incoming = await tab.next('call.incoming');
          tab.send({ type: 'call.reject', callId: incoming.callId });
          expect(await tab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'rejected' });
          tab.socket.close();
        };
      },
    ],
    [
      'busy',
      'busy',
      async (bob) => {
        const tab = await RealtimeTab.listening(wsBase, bob.browser);
        const own = (await bob.browser.post('/api/v1/calls', { from: bob.number, to: '+14155550100' })).json();
        return async () => {
          await bob.browser.post(`/api/v1/calls/${own.call.id}/hangup`);
          tab.socket.close();
        };
      },
    ],
  ];

  it.each(reasons)('takes a message when the call is %s, and the owner keeps a %s missed call linked to it', async (_reason, outcome, prepare) => {
    const bob = await owner();
    const ada = await caller();
    const after = await prepare(bob);
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    const ringing = after();
    await leaveMessage(ada.browser, placed.call.id, placed.mediaPath, 1_500);
    await ringing;
    await until(async () => (await testApp.database.db.select().from(voicemails).where(eq(voicemails.userId, bob.userId))).some((row) => row.state !== 'recording'));
    const [message] = (await bob.browser.get('/api/v1/voicemail')).json().voicemails;
    const missed = await missedRecord(bob.userId);
    expect(missed).toMatchObject({ state: 'ended', outcome });
    expect(message.callId).toBe(missed.id);
    expect(message.durationSec).toBeGreaterThanOrEqual(1);
  });

  it('ends the call at the message limit, keeping what was said up to it', async () => {
    const bob = await owner();
    const ada = await caller();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    await leaveMessage(ada.browser, placed.call.id, placed.mediaPath, MAX_MESSAGE_MS + 1_500, false);
    expect((await ada.browser.get(`/api/v1/calls/${placed.call.id}`)).json()).toMatchObject({ state: 'ended', outcome: 'completed' });
    await until(async () => (await testApp.database.db.select().from(voicemails).where(eq(voicemails.userId, bob.userId))).some((row) => row.state !== 'recording'));
    const [message] = (await bob.browser.get('/api/v1/voicemail')).json().voicemails;
    // What was said up to the limit: never more, a little less when the test's timer runs late.
    expect(message.durationSec).toBeLessThanOrEqual(MAX_MESSAGE_MS / 1000);
    expect(message.durationSec).toBeGreaterThanOrEqual(MAX_MESSAGE_MS / 1000 - 1);
  });

  it('keeps no message from a caller who hangs up at the beep', async () => {
    const bob = await owner();
    const ada = await caller();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    await leaveMessage(ada.browser, placed.call.id, placed.mediaPath, 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await bob.browser.get('/api/v1/voicemail')).json()).toEqual({ voicemails: [], unheard: 0 });
    expect((await bob.browser.get('/api/v1/calls')).json().calls[0]).toMatchObject({ outcome: 'unavailable', voicemailId: null });
  });
});
