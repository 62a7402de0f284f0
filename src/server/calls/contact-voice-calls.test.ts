import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaidPlan } from '../../common/plans';
import type { VoiceSettings } from '../../common/voice';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { contacts } from '../contacts/schema';
import { extendSubscription } from '../plans/service';
import { saveVoiceSettings } from '../voice/service';
import { calls } from './schema';

// A voice preset per contact (issue 20 item 5): the sound-test line plays back the voice the call
// used, so a contact saved for its number shows which settings the call took.
const SOUND_TEST = '+14155550100';
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { echoDelayMs: 0 } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

/** A caller on `plan` whose contact for the sound-test line carries `preset`, saved directly: the route refuses what the plan does not cover. */
async function callerWithContact(plan: 'free' | PaidPlan, preset: VoiceSettings | null, own: VoiceSettings = { voiceType: 'normal', pitch: 1, speed: 1 }) {
  const user = await newSignedInUser(testApp.app);
  if (plan !== 'free') await extendSubscription(testApp.database.db, user.userId, plan, new Date());
  await saveVoiceSettings(testApp.database.db, user.userId, own);
  await testApp.database.db.insert(contacts).values({ userId: user.userId, name: 'Echo', phoneNumber: SOUND_TEST, voiceSettings: preset });
  return { ...user, number: await rentANumber(user.browser) };
}

/** Calls the sound-test line, dialled as typed, singing `hz`. */
async function echoOf(person: Awaited<ReturnType<typeof callerWithContact>>, hz: number, to = SOUND_TEST) {
  const placed = await person.browser.post('/api/v1/calls', { from: person.number, to });
  expect(placed.statusCode, placed.body).toBe(201);
  const media = await MediaClient.connect(`${wsBase}${placed.json().mediaPath}`, cookieHeader(person.browser.cookies));
  media.sendTone(hz, 16_000);
  await until(() => media.received.length >= 100, 10_000);
  return { placed: placed.json(), media };
}

async function hangUp(person: Awaited<ReturnType<typeof callerWithContact>>, callId: string, media: MediaClient) {
  media.close();
  await until(async () => (await person.browser.get(`/api/v1/calls/${callId}`)).json().state === 'ended');
}

const near = (measured: number, hz: number) => Math.abs(measured - hz) < hz * 0.02;

describe('calling a contact with a voice preset', () => {
  it('uses the contact’s pitch instead of the caller’s own, however the number is dialled, and says whose it is', async () => {
    const ada = await callerWithContact('premium', { voiceType: 'normal', pitch: 1.5, speed: 1 }, { voiceType: 'normal', pitch: 2, speed: 1 });
    const { placed, media } = await echoOf(ada, 220, '+1 (415) 555-0100');
    expect(placed.contactVoice).toEqual({ contactName: 'Echo', settings: { voiceType: 'normal', pitch: 1.5, speed: 1 } });
    expect(placed.voiceNotice).toBeUndefined();
    expect(near(dominantFrequency(media.audio(50), 16_000), 330)).toBe(true);
    const [record] = await testApp.database.db.select().from(calls).where(eq(calls.id, placed.call.id));
    expect(record!.voiceSettings).toEqual({ voiceType: 'normal', pitch: 1.5, speed: 1 });

    // The caller's own settings, saved during the call, leave the contact's preset in place.
    expect((await ada.browser.request('PUT', '/api/v1/voice-settings', { voiceType: 'normal', pitch: 0.5, speed: 1 })).statusCode).toBe(200);
    const from = media.received.length + 25;
    await until(() => media.received.length >= from + 50, 10_000);
    expect(near(dominantFrequency(media.audio(from), 16_000), 330)).toBe(true);
    await hangUp(ada, placed.call.id, media);

    // Call History says which voice the call used and whose preset it was.
    const [past] = (await ada.browser.get('/api/v1/calls')).json().calls;
    expect(past.voice).toEqual({ settings: { voiceType: 'normal', pitch: 1.5, speed: 1 }, contactName: 'Echo' });
  });

  it('uses the caller’s own settings when their contact has no preset, whatever another user’s contact for that number carries', async () => {
    await callerWithContact('premium', { voiceType: 'normal', pitch: 0.5, speed: 1 });
    const ada = await callerWithContact('premium', null, { voiceType: 'normal', pitch: 2, speed: 1 });
    const { placed, media } = await echoOf(ada, 220);
    expect(placed.contactVoice).toBeUndefined();
    expect(near(dominantFrequency(media.audio(50), 16_000), 440)).toBe(true);
    await hangUp(ada, placed.call.id, media);
    const [past] = (await ada.browser.get('/api/v1/calls')).json().calls;
    expect(past.voice).toEqual({ settings: { voiceType: 'normal', pitch: 2, speed: 1 }, contactName: null });
  });

  it('falls back to the normal voice when the preset is beyond the plan, with the same notice as the caller’s own settings', async () => {
    const free = await callerWithContact('free', { voiceType: 'normal', pitch: 1.5, speed: 1 });
    const first = await echoOf(free, 220);
    expect(first.placed.voiceNotice).toBe('Voice changer needs Premium');
    expect(first.placed.contactVoice).toBeUndefined();
    expect(near(dominantFrequency(first.media.audio(50), 16_000), 220)).toBe(true);
    await hangUp(free, first.placed.call.id, first.media);

    const premium = await callerWithContact('premium', { voiceType: 'chinese', pitch: 1, speed: 1 });
    const second = await echoOf(premium, 220);
    expect(second.placed.voiceNotice).toBe('This accent needs Platinum');
    const [record] = await testApp.database.db.select().from(calls).where(eq(calls.id, second.placed.call.id));
    expect(record!.voiceSettings).toBeNull();
    await hangUp(premium, second.placed.call.id, second.media);
    const [past] = (await premium.browser.get('/api/v1/calls')).json().calls;
    expect(past.voice).toBeNull();
  });
});
