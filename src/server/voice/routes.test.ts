import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaidPlan } from '../../common/plans';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { TestBrowser } from '../../../tests/support/test-browser';
import { subscriptions } from '../plans/schema';
import { extendSubscription } from '../plans/service';
import { voiceSettings } from './schema';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(() => testApp.close());

const put = (browser: TestBrowser, body: unknown) => browser.request('PUT', '/api/v1/voice-settings', body);

async function userOn(plan: 'free' | PaidPlan) {
  const user = await newSignedInUser(testApp.app);
  if (plan !== 'free') await extendSubscription(testApp.database.db, user.userId, plan, new Date());
  return user;
}

async function savedRow(userId: string) {
  const [row] = await testApp.database.db.select().from(voiceSettings).where(eq(voiceSettings.userId, userId));
  return row;
}

const basicAccents = ['normal', 'caucasian', 'european', 'hispanic', 'african'];
const allAccents = ['normal', 'caucasian', 'european', 'russian', 'chinese', 'indian', 'african', 'hispanic', 'middleEastern'];

describe('/api/v1/voice-settings', () => {
  it('needs a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    expect((await anonymous.get('/api/v1/voice-settings')).statusCode).toBe(401);
    const refused = await put(anonymous, { voiceType: 'normal', pitch: 1, speed: 1 });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('unauthenticated');
  });

  it('starts from the default voice with what the plan allows', async () => {
    const free = await userOn('free');
    expect((await free.browser.get('/api/v1/voice-settings')).json()).toEqual({
      settings: { voiceType: 'normal', pitch: 1, speed: 1 },
      allowed: { voiceTypes: ['normal'], pitchAndSpeed: false },
      tier: 'free',
    });
    const premium = await userOn('premium');
    expect((await premium.browser.get('/api/v1/voice-settings')).json()).toMatchObject({ allowed: { voiceTypes: basicAccents, pitchAndSpeed: true }, tier: 'premium' });
    const platinum = await userOn('platinum');
    expect((await platinum.browser.get('/api/v1/voice-settings')).json()).toMatchObject({ allowed: { voiceTypes: allAccents, pitchAndSpeed: true }, tier: 'platinum' });
  });

  it('saves the settings per user and answers them as GET does', async () => {
    const ada = await userOn('premium');
    const bob = await userOn('premium');
    const saved = await put(ada.browser, { voiceType: 'european', pitch: 1.5, speed: 0.8 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ settings: { voiceType: 'european', pitch: 1.5, speed: 0.8 }, allowed: { voiceTypes: basicAccents, pitchAndSpeed: true }, tier: 'premium' });
    expect((await ada.browser.get('/api/v1/voice-settings')).json()).toEqual(saved.json());

    const changed = await put(ada.browser, { voiceType: 'hispanic', pitch: 2, speed: 0.5 });
    expect(changed.json().settings).toEqual({ voiceType: 'hispanic', pitch: 2, speed: 0.5 });
    expect((await bob.browser.get('/api/v1/voice-settings')).json().settings).toEqual({ voiceType: 'normal', pitch: 1, speed: 1 });
  });

  it('keeps a value a float step away from the tenth exactly on the tenth', async () => {
    const { browser } = await userOn('premium');
    const saved = await put(browser, { voiceType: 'normal', pitch: 0.1 * 3 + 0.9, speed: 0.7000000000000001 });
    expect(saved.json().settings).toEqual({ voiceType: 'normal', pitch: 1.2, speed: 0.7 });
  });

  it.each([
    ['pitch below the range', { voiceType: 'normal', pitch: 0.4, speed: 1 }, 'pitch', 'Pitch must be between 0.5 and 2'],
    ['speed above the range', { voiceType: 'normal', pitch: 1, speed: 2.1 }, 'speed', 'Speed must be between 0.5 and 2'],
    ['pitch off the step', { voiceType: 'normal', pitch: 1.25, speed: 1 }, 'pitch', 'Pitch must be in steps of 0.1'],
    ['speed as text', { voiceType: 'normal', pitch: 1, speed: '1.5' }, 'speed', 'Speed must be a number'],
    ['a missing pitch', { voiceType: 'normal', speed: 1 }, 'pitch', 'Pitch must be a number'],
    ['an unknown voice type', { voiceType: 'robot', pitch: 1, speed: 1 }, 'voiceType', 'Voice type must be one of'],
  ])('refuses %s with 400 naming the field, saving nothing', async (_label, body, field, message) => {
    const { browser, userId } = await userOn('platinum');
    const response = await put(browser, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_input', field });
    expect(response.json().error.message).toContain(message);
    expect(await savedRow(userId)).toBeUndefined();
  });

  it('refuses an unknown field and a body that is not an object', async () => {
    const { browser } = await userOn('platinum');
    const extra = await put(browser, { voiceType: 'normal', pitch: 1, speed: 1, volume: 11 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error.code).toBe('invalid_input');
    const list = await put(browser, [1, 2]);
    expect(list.statusCode).toBe(400);
  });

  it.each([
    ['free', { voiceType: 'caucasian', pitch: 1, speed: 1 }, 'Voice changer needs Premium'],
    ['free', { voiceType: 'normal', pitch: 1.1, speed: 1 }, 'Voice changer needs Premium'],
    ['free', { voiceType: 'normal', pitch: 1, speed: 0.9 }, 'Voice changer needs Premium'],
    ['free', { voiceType: 'indian', pitch: 1, speed: 1 }, 'This accent needs Platinum'],
    ['premium', { voiceType: 'middleEastern', pitch: 1, speed: 1 }, 'This accent needs Platinum'],
    ['premium', { voiceType: 'russian', pitch: 1.5, speed: 1 }, 'This accent needs Platinum'],
  ] as const)('refuses a %s user settings beyond the plan with 403 plan_required, saving nothing (%o)', async (plan, body, message) => {
    const { browser, userId } = await userOn(plan);
    const response = await put(browser, body);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({ code: 'plan_required', message });
    expect(await savedRow(userId)).toBeUndefined();
  });

  it('lets Free save the normal voice, and Platinum any accent', async () => {
    const free = await userOn('free');
    expect((await put(free.browser, { voiceType: 'normal', pitch: 1, speed: 1 })).statusCode).toBe(200);
    const platinum = await userOn('platinum');
    const saved = await put(platinum.browser, { voiceType: 'middleEastern', pitch: 0.5, speed: 1.3 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings).toEqual({ voiceType: 'middleEastern', pitch: 0.5, speed: 1.3 });
  });

  it('answers settings saved on a plan that has since ended as saved, with the Free allowance', async () => {
    const { browser, userId } = await userOn('platinum');
    await put(browser, { voiceType: 'chinese', pitch: 1.4, speed: 1 });
    await testApp.database.db.update(subscriptions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(subscriptions.userId, userId));
    const { tier, settings, allowed } = (await browser.get('/api/v1/voice-settings')).json();
    expect({ tier, settings, allowed }).toEqual({ tier: 'free', settings: { voiceType: 'chinese', pitch: 1.4, speed: 1 }, allowed: { voiceTypes: ['normal'], pitchAndSpeed: false } });
  });
});
