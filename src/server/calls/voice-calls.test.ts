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
import { extendSubscription } from '../plans/service';
import { saveVoiceSettings } from '../voice/service';
import { calls } from './schema';

// The caller's voice changer in calls (issue 7 point 7): the sound-test line plays back the
// changed voice, so the echo shows what a recipient hears.
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { echoDelayMs: 0 } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function caller(plan: 'free' | PaidPlan, settings: VoiceSettings) {
  const user = await newSignedInUser(testApp.app);
  if (plan !== 'free') await extendSubscription(testApp.database.db, user.userId, plan, new Date());
  // Saved directly: the settings route would refuse what the plan does not cover.
  await saveVoiceSettings(testApp.database.db, user.userId, settings);
  return { ...user, number: await rentANumber(user.browser) };
}

/** Calls the sound-test line singing `hz`; answers what came back after the first second. */
async function echoOf(person: Awaited<ReturnType<typeof caller>>, hz: number) {
  const placed = await person.browser.post('/api/v1/calls', { from: person.number, to: '+14155550100' });
  const media = await MediaClient.connect(`${wsBase}${placed.json().mediaPath}`, cookieHeader(person.browser.cookies));
  media.sendTone(hz, 16_000);
  await until(() => media.received.length >= 100, 10_000);
  return { placed: placed.json(), media };
}

describe('the voice changer in calls', () => {
  it('raises a Premium caller’s voice by the chosen pitch: 220 Hz comes back at 330 Hz', async () => {
    const ada = await caller('premium', { voiceType: 'normal', pitch: 1.5, speed: 1 });
    const { placed, media } = await echoOf(ada, 220);
    expect(placed.voiceNotice).toBeUndefined();
    expect(Math.abs(dominantFrequency(media.audio(50), 16_000) - 330)).toBeLessThan(330 * 0.02);
    const [record] = await testApp.database.db.select().from(calls).where(eq(calls.id, placed.call.id));
    expect(record!.voiceSettings).toEqual({ voiceType: 'normal', pitch: 1.5, speed: 1 });
    media.close();
    await until(async () => (await ada.browser.get(`/api/v1/calls/${placed.call.id}`)).json().state === 'ended');
  });

  it('applies new settings to the call in progress', async () => {
    const ada = await caller('premium', { voiceType: 'normal', pitch: 1, speed: 1 });
    const { placed, media } = await echoOf(ada, 220);
    expect(Math.abs(dominantFrequency(media.audio(50), 16_000) - 220)).toBeLessThan(220 * 0.02);
    const saved = await ada.browser.request('PUT', '/api/v1/voice-settings', { voiceType: 'normal', pitch: 2, speed: 1 });
    expect(saved.statusCode).toBe(200);
    const from = media.received.length + 25;
    await until(() => media.received.length >= from + 50, 10_000);
    expect(Math.abs(dominantFrequency(media.audio(from), 16_000) - 440)).toBeLessThan(440 * 0.02);
    media.close();
    await until(async () => (await ada.browser.get(`/api/v1/calls/${placed.call.id}`)).json().state === 'ended');
  });

  it('falls back to the normal voice beyond the plan, and tells the caller why', async () => {
    const free = await caller('free', { voiceType: 'normal', pitch: 1.5, speed: 1 });
    const first = await echoOf(free, 220);
    expect(first.placed.voiceNotice).toBe('Voice changer needs Premium');
    expect(Math.abs(dominantFrequency(first.media.audio(50), 16_000) - 220)).toBeLessThan(220 * 0.02);
    first.media.close();
    await until(async () => (await free.browser.get(`/api/v1/calls/${first.placed.call.id}`)).json().state === 'ended');

    const premium = await caller('premium', { voiceType: 'chinese', pitch: 1, speed: 1 });
    const second = await echoOf(premium, 220);
    expect(second.placed.voiceNotice).toBe('This accent needs Platinum');
    second.media.close();
  });

  it('lets a Platinum caller use every accent', async () => {
    const ada = await caller('platinum', { voiceType: 'middleEastern', pitch: 1, speed: 1 });
    const { placed, media } = await echoOf(ada, 220);
    expect(placed.voiceNotice).toBeUndefined();
    const [record] = await testApp.database.db.select().from(calls).where(eq(calls.id, placed.call.id));
    expect(record!.voiceSettings).toEqual({ voiceType: 'middleEastern', pitch: 1, speed: 1 });
    media.close();
  });
});
