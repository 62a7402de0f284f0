import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SOUND_TEST_NUMBER } from '../../common/calls';
import type { Tier } from '../../common/plans';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { dominantFrequency, rms } from '../../../tests/support/dsp/analysis';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { capturingRecordingStorage } from '../../../tests/support/recording-storage';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { subscriptions } from '../plans/schema';
import { BEEP_HZ } from './recording-announcement';
import { recordings } from './schema';

const RATE = 16_000;
const storage = capturingRecordingStorage();
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { ringTimeoutMs: 5_000 }, recordingStorage: storage.storage });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function person(tier: Tier) {
  const user = await newSignedInUser(testApp.app);
  if (tier !== 'free') await testApp.database.db.insert(subscriptions).values({ userId: user.userId, tier, expiresAt: new Date(Date.now() + 30 * 86_400_000) });
  return { ...user, number: await rentANumber(user.browser), tab: await RealtimeTab.listening(wsBase, user.browser) };
}

type Person = Awaited<ReturnType<typeof person>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const media = (who: Person, callId: string) => MediaClient.connect(`${wsBase}/api/v1/calls/${callId}/media`, cookieHeader(who.browser.cookies));
const rowsOf = (userId: string) => testApp.database.db.select().from(recordings).where(eq(recordings.userId, userId));

/** The amplitude (0..1) of `hz` in `samples`, by correlation with a sine and a cosine. */
function toneLevel(samples: ArrayLike<number>, hz: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < samples.length; i += 1) {
    re += samples[i]! * Math.cos((2 * Math.PI * hz * i) / RATE);
    im += samples[i]! * Math.sin((2 * Math.PI * hz * i) / RATE);
  }
  return (2 * Math.hypot(re, im)) / samples.length;
}

/** The loudest `hz` gets in any 100 ms of `audio`. */
function loudestTone(audio: ArrayLike<number>, hz: number): number {
  let loudest = 0;
  for (let start = 0; start + 1_600 <= audio.length; start += 800) loudest = Math.max(loudest, toneLevel(Array.prototype.slice.call(audio, start, start + 1_600) as number[], hz));
  return loudest;
}

/** The last second of a channel, as -1..1. */
const lastSecond = (channel: number[]) => channel.slice(-RATE).map((sample) => sample / 32768);

/** Ada calls Bob and he answers in his tab; both send their tone. */
async function callBetween(ada: Person, bob: Person) {
  const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
  const incoming = await bob.tab.next('call.incoming');
  bob.tab.send({ type: 'call.answer', callId: incoming.callId });
  await until(() => bob.tab.messages.some((m) => m.type === 'call.state' && m.state === 'answered'));
  const adaMedia = await media(ada, placed.call.id);
  const bobMedia = await media(bob, incoming.callId);
  adaMedia.sendTone(440, RATE);
  bobMedia.sendTone(660, RATE);
  await until(() => adaMedia.received.length > 10 && bobMedia.received.length > 10);
  return { adaCallId: placed.call.id as string, bobCallId: incoming.callId, adaMedia, bobMedia };
}

describe('call recording', () => {
  it('records a call between two Voxline users for the one who asks: their voice on channel 1, the other’s on 2; both are told, the other hears the tone', async () => {
    const ada = await person('premium');
    const bob = await person('free');
    const { adaCallId, bobCallId, adaMedia, bobMedia } = await callBetween(ada, bob);
    const heardBefore = bobMedia.received.length;
    const count = storage.recordings.length;

    ada.tab.send({ type: 'call.record', callId: adaCallId, recording: true });
    const started = await ada.tab.next('call.recording');
    expect(started).toMatchObject({ callId: adaCallId, recording: true, byYou: true });
    expect(await bob.tab.next('call.recording')).toMatchObject({ callId: bobCallId, recording: true, byYou: false });
    await sleep(2_000);
    ada.tab.send({ type: 'call.record', callId: adaCallId, recording: false });
    await until(() => ada.tab.messages.some((m) => m.type === 'call.recording' && !m.recording));
    await until(async () => (await rowsOf(ada.userId))[0]?.state === 'saved');

    const captured = storage.recordings[count]!;
    expect(captured.finished).toBe(true);
    expect(dominantFrequency(lastSecond(captured.left), RATE)).toBeCloseTo(440, 0);
    expect(dominantFrequency(lastSecond(captured.right), RATE)).toBeCloseTo(660, 0);
    // Bob heard the two beeps over Ada's voice when the recording began, and not before.
    expect(loudestTone(bobMedia.audio(heardBefore), BEEP_HZ)).toBeGreaterThan(0.1);
    expect(loudestTone(bobMedia.audio(0).subarray(0, heardBefore * 320), BEEP_HZ)).toBeLessThan(0.02);

    const [row] = await rowsOf(ada.userId);
    expect(row).toMatchObject({ callId: adaCallId, state: 'saved', instanceId: null, objectKey: `recordings/${ada.userId}/${row!.id}.ogg` });
    expect(row!.durationMs).toBeGreaterThan(1_500);
    expect(row!.durationMs).toBeLessThan(2_600);
    expect(row!.retainUntil.getTime() - row!.startedAt.getTime()).toBe(90 * 86_400_000);
    expect(await rowsOf(bob.userId)).toHaveLength(0);
    adaMedia.close();
    bobMedia.close();
  });

  it('records the sound test by the preference, from the answer: both channels carry the tone, and the call end finishes it', async () => {
    const ada = await person('platinum');
    expect((await ada.browser.patch('/api/v1/preferences', { recordCalls: true })).statusCode).toBe(200);
    const count = storage.recordings.length;
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: DEFAULT_SOUND_TEST_NUMBER })).json();
    const adaMedia = await media(ada, placed.call.id);
    adaMedia.sendTone(440, RATE);
    expect(await ada.tab.next('call.recording')).toMatchObject({ callId: placed.call.id, recording: true, byYou: true });
    await sleep(2_000);
    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    await until(async () => (await rowsOf(ada.userId))[0]?.state === 'saved');

    const captured = storage.recordings[count]!;
    expect(dominantFrequency(lastSecond(captured.left), RATE)).toBeCloseTo(440, 0);
    expect(dominantFrequency(lastSecond(captured.right), RATE)).toBeCloseTo(440, 0);
    const [row] = await rowsOf(ada.userId);
    expect(row!.endedAt).not.toBeNull();
    // The file's time is the audio's: a test's tone timer falls behind on a busy machine.
    expect(row!.durationMs).toBeGreaterThan(1_000);
    adaMedia.close();
  });

  it('plays the spoken notice after the beeps to an outside number, and only the beeps on the sound test', async () => {
    const ada = await person('premium');
    const speechAfterBeeps = async (to: string) => {
      const count = storage.recordings.length;
      const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to })).json();
      const adaMedia = await media(ada, placed.call.id);
      adaMedia.sendTone(440, RATE, () => true);
      await until(() => ada.tab.messages.some((m) => m.type === 'call.state' && m.callId === placed.call.id && m.state === 'answered'), 10_000);
      await until(() => adaMedia.received.length > 5);
      ada.tab.send({ type: 'call.record', callId: placed.call.id, recording: true });
      await until(() => ada.tab.messages.some((m) => m.type === 'call.recording' && m.callId === placed.call.id));
      await sleep(3_500);
      await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
      await until(() => storage.recordings[count]?.finished === true);
      adaMedia.close();
      // What the far side heard from Ada, who said nothing: the beeps (0-0.6 s), then 0.9-2.4 s of notice or silence.
      return rms(storage.recordings[count]!.left.slice(0.95 * RATE, 2.3 * RATE).map((sample) => sample / 32768));
    };
    expect(await speechAfterBeeps('+14155550123')).toBeGreaterThan(0.01);
    expect(await speechAfterBeeps(DEFAULT_SOUND_TEST_NUMBER)).toBeLessThan(0.001);
  });

  it('refuses a Free user, naming the plans that record, and a call not yet answered', async () => {
    const free = await person('free');
    const placed = (await free.browser.post('/api/v1/calls', { from: free.number, to: DEFAULT_SOUND_TEST_NUMBER })).json();
    free.tab.send({ type: 'call.record', callId: placed.call.id, recording: true });
    expect(await free.tab.next('error')).toEqual({ type: 'error', code: 'plan_required', message: 'Call recording is part of Premium and Platinum.', callId: placed.call.id });
    await free.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);

    const ada = await person('premium');
    const bob = await person('free');
    const ringing = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    await bob.tab.next('call.incoming');
    ada.tab.send({ type: 'call.record', callId: ringing.call.id, recording: true });
    expect(await ada.tab.next('error')).toMatchObject({ code: 'not_answered', message: 'Only a call that has been answered can be recorded' });
    await ada.browser.post(`/api/v1/calls/${ringing.call.id}/hangup`);
    expect(await rowsOf(ada.userId)).toHaveLength(0);
  });
});

describe('a recording that cannot be written', () => {
  const failing = capturingRecordingStorage({ failWrites: true });
  let failingApp: TestApp;
  let failingWs: string;
  beforeAll(async () => {
    failingApp = await buildTestApp({ mailer: capturingMailer(), recordingStorage: failing.storage });
    failingWs = (await failingApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  afterAll(() => failingApp.close());

  it('stops with a notice to its user; the call goes on', async () => {
    const ada = await newSignedInUser(failingApp.app);
    await failingApp.database.db.insert(subscriptions).values({ userId: ada.userId, tier: 'premium', expiresAt: new Date(Date.now() + 86_400_000) });
    const number = await rentANumber(ada.browser);
    const tab = await RealtimeTab.open(failingWs, ada.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: number, to: DEFAULT_SOUND_TEST_NUMBER })).json();
    const adaMedia = await MediaClient.connect(`${failingWs}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    adaMedia.sendTone(440, RATE);
    await until(() => adaMedia.received.length > 5);

    tab.send({ type: 'call.record', callId: placed.call.id, recording: true });
    expect(await tab.next('notice')).toEqual({ type: 'notice', code: 'recording_failed', message: 'The recording could not be saved. Your call goes on.' });
    await until(() => tab.messages.some((m) => m.type === 'call.recording' && !m.recording));
    const [row] = await failingApp.database.db.select().from(recordings).where(eq(recordings.userId, ada.userId));
    await until(async () => (await failingApp.database.db.select().from(recordings).where(eq(recordings.userId, ada.userId)))[0]?.state === 'failed');
    expect(row).toBeDefined();

    const heard = adaMedia.received.length;
    await until(() => adaMedia.received.length > heard + 25);
    expect(tab.messages.some((m) => m.type === 'call.ended')).toBe(false);
    expect(adaMedia.closeCode).toBeNull();
    adaMedia.close();
  });
});
