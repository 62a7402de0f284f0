import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../calls/schema';
import { extendSubscription } from '../plans/service';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

const URL = '/functions/v1/vonage-phone';

describe('POST /functions/v1/vonage-phone (docs/product.md §7)', () => {
  it('needs a session', async () => {
    const response = await new TestBrowser(testApp.app).post(URL, { action: 'listUserNumbers', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('searchNumbers answers numbers[] with msisdn and cost', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post(URL, { action: 'searchNumbers', payload: { country: 'US', pattern: '415', features: 'VOICE' } });
    expect(response.statusCode, response.body).toBe(200);
    const { numbers } = response.json();
    expect(numbers).toHaveLength(10);
    for (const number of numbers) expect(number).toEqual({ msisdn: expect.stringMatching(/^1415\d{7}$/), cost: '1.00', country: 'US', currency: 'USD' });
  });

  it('provisionNumber rents for the session\'s user and listUserNumbers lists with the seed\'s field names', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const [offer] = (await browser.post(URL, { action: 'searchNumbers', payload: { country: 'GB' } })).json().numbers;
    const provision = await browser.post(URL, { action: 'provisionNumber', payload: { country: 'GB', msisdn: offer.msisdn, userId, friendlyName: 'UK line' } });
    expect(provision.statusCode, provision.body).toBe(200);
    const number = { id: expect.any(String), phone_number: `+${offer.msisdn}`, friendly_name: 'UK line', active: true };
    expect(provision.json()).toEqual({ success: true, number });

    const list = await browser.post(URL, { action: 'listUserNumbers', payload: { userId } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ numbers: [number] });
    expect((await browser.get('/api/v1/numbers')).json().numbers).toHaveLength(1);
  });

  it('refuses to act for another user (403), renting and showing nothing', async () => {
    const ada = await newSignedInUser(testApp.app);
    const eve = await newSignedInUser(testApp.app);
    const [offer] = (await eve.browser.post(URL, { action: 'searchNumbers', payload: {} })).json().numbers;
    const provision = await eve.browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: offer.msisdn, userId: ada.userId } });
    expect(provision.statusCode).toBe(403);
    expect(provision.json().error).toEqual({ code: 'forbidden', message: 'You can only manage your own phone numbers', field: 'payload.userId' });
    expect((await ada.browser.get('/api/v1/numbers')).json().numbers).toEqual([]);
    expect((await eve.browser.get('/api/v1/numbers')).json().numbers).toEqual([]);
    expect((await eve.browser.post(URL, { action: 'listUserNumbers', payload: { userId: ada.userId } })).statusCode).toBe(403);
  });

  it('answers 409 for a number someone else rented', async () => {
    const ada = await newSignedInUser(testApp.app);
    const bob = await newSignedInUser(testApp.app);
    const [offer] = (await ada.browser.post(URL, { action: 'searchNumbers', payload: { pattern: '303' } })).json().numbers;
    expect((await ada.browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: offer.msisdn } })).statusCode).toBe(200);
    const again = await bob.browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: offer.msisdn } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Number no longer available');
  });

  it('keeps the seed\'s msisdn: a leading + is accepted, and refusals about the number name msisdn', async () => {
    const ada = await newSignedInUser(testApp.app);
    const bob = await newSignedInUser(testApp.app);
    const [offer] = (await ada.browser.post(URL, { action: 'searchNumbers', payload: { pattern: '720' } })).json().numbers;
    const provision = await ada.browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: `+${offer.msisdn}` } });
    expect(provision.statusCode, provision.body).toBe(200);
    expect(provision.json().number.phone_number).toBe(`+${offer.msisdn}`);
    const again = await bob.browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: offer.msisdn } });
    expect(again.json().error).toEqual({ code: 'number_unavailable', message: 'Number no longer available', field: 'msisdn' });
    const abroad = await bob.browser.post(URL, { action: 'provisionNumber', payload: { country: 'GB', msisdn: offer.msisdn } });
    expect(abroad.statusCode).toBe(400);
    expect(abroad.json().error).toEqual({ code: 'invalid_input', message: 'This number is not in United Kingdom', field: 'msisdn' });
  });

  it('provisionNumber keeps to the plan\'s limit, as /api/v1/numbers does', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const [first, second] = (await browser.post(URL, { action: 'searchNumbers', payload: { pattern: '202' } })).json().numbers;
    expect((await browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: first.msisdn } })).statusCode).toBe(200);
    const refused = await browser.post(URL, { action: 'provisionNumber', payload: { country: 'US', msisdn: second.msisdn } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'number_limit_reached', message: 'Your Free plan includes 1 number. Upgrade to Premium for up to 3.' });
    expect((await browser.post(URL, { action: 'listUserNumbers', payload: {} })).json().numbers).toHaveLength(1);
  });

  it.each([
    ['an unknown action', { action: 'hackTheGibson', payload: {} }, 'Unknown action', 'action'],
    ['a missing action', { payload: {} }, 'action: action is required', 'action'],
    ['an unknown country', { action: 'searchNumbers', payload: { country: 'XX' } }, 'payload.country: Choose one of the listed countries', 'payload.country'],
    ['features other than VOICE', { action: 'searchNumbers', payload: { features: 'SMS' } }, 'payload.features: Only VOICE numbers are offered', 'payload.features'],
    ['a provisioning without a number', { action: 'provisionNumber', payload: { country: 'US' } }, 'payload.msisdn: Number is required', 'payload.msisdn'],
  ])('refuses %s with 400', async (_label, body, message, field) => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.post(URL, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ message, field });
    expect((await browser.get('/api/v1/numbers')).json().numbers).toEqual([]);
  });

  it('refuses requests from another site', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.request('POST', URL, { action: 'listUserNumbers' }, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden_origin');
  });
});

describe('the call actions of /functions/v1/vonage-phone', () => {
  const SOUND_TEST = '+14155550100';

  async function caller() {
    const user = await newSignedInUser(testApp.app);
    return { ...user, number: await rentANumber(user.browser) };
  }

  const callsOf = (userId: string) => testApp.database.db.select().from(calls).where(eq(calls.userId, userId));

  it('initiateCall places the call as POST /api/v1/calls does, answering the call and its media path', async () => {
    const { browser, number, userId } = await caller();
    const response = await browser.post(URL, { action: 'initiateCall', payload: { from: number, to: SOUND_TEST, extra: 'ignored' } });
    expect(response.statusCode, response.body).toBe(200);
    const { call, mediaPath, sampleRate } = response.json();
    expect(call).toMatchObject({ direction: 'outbound', from: number, to: SOUND_TEST, state: 'answered' });
    expect(mediaPath).toBe(`/api/v1/calls/${call.id}/media`);
    expect(sampleRate).toBe(16_000);
    const [row] = await callsOf(userId);
    expect(row).toMatchObject({ id: call.id, voiceSettings: null });
    // The same one-call rule as the REST route.
    const second = await browser.post(URL, { action: 'initiateCall', payload: { from: number, to: SOUND_TEST } });
    expect(second.statusCode).toBe(409);
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });

  it('initiateCall takes the number to call in msisdn form too, as the prototype may send it, and records it in E.164', async () => {
    const { browser, number } = await caller();
    const response = await browser.post(URL, { action: 'initiateCall', payload: { from: number, to: SOUND_TEST.slice(1) } });
    expect(response.statusCode, response.body).toBe(200);
    const { call } = response.json();
    expect(call).toMatchObject({ to: SOUND_TEST, state: 'answered' });
    await browser.post(`/api/v1/calls/${call.id}/hangup`);
  });

  it('initiateCallWithVoiceChange uses the voice settings it is given, as far as the plan allows', async () => {
    const voiceSettings = { voiceType: 'middleEastern', pitch: 1.3, speed: 0.7, label: 'ignored' };
    const platinum = await caller();
    await extendSubscription(testApp.database.db, platinum.userId, 'platinum', new Date());
    const response = await platinum.browser.post(URL, { action: 'initiateCallWithVoiceChange', payload: { from: platinum.number, to: SOUND_TEST, voiceSettings } });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await callsOf(platinum.userId);
    expect(row!.id).toBe(response.json().call.id);
    expect(row!.voiceSettings).toEqual({ voiceType: 'middleEastern', pitch: 1.3, speed: 0.7 });
    await platinum.browser.post(`/api/v1/calls/${row!.id}/hangup`);

    // Checked the same way as the saved settings: beyond a Free plan, the normal voice.
    const free = await caller();
    const refused = await free.browser.post(URL, { action: 'initiateCallWithVoiceChange', payload: { from: free.number, to: SOUND_TEST, voiceSettings } });
    expect(refused.json()).toMatchObject({ voiceNotice: 'This accent needs Platinum' });
    const [freeRow] = await callsOf(free.userId);
    expect(freeRow!.voiceSettings).toBeNull();
    await free.browser.post(`/api/v1/calls/${freeRow!.id}/hangup`);
  });

  const good = { voiceType: 'russian', pitch: 1, speed: 1 };
  it.each([
    ['a call without a number to call', 'initiateCall', { to: '' }, 'payload.to', 'payload.to: Phone number required'],
    ['a call from a number that is not the user’s', 'initiateCall', { from: '+14155552671' }, 'from', 'No phone number available'],
    ['an invalid destination', 'initiateCall', { to: '12' }, 'to', 'Enter a valid phone number to call'],
    ['a voice change without settings', 'initiateCallWithVoiceChange', {}, 'payload.voiceSettings', 'payload.voiceSettings: Voice settings must be an object with voiceType, pitch and speed'],
    [
      'an unknown voice type',
      'initiateCallWithVoiceChange',
      { voiceSettings: { ...good, voiceType: 'robot' } },
      'payload.voiceSettings.voiceType',
      'payload.voiceSettings.voiceType: Voice type must be one of normal, caucasian, european, russian, chinese, indian, african, hispanic, middleEastern',
    ],
    ['a pitch above 2', 'initiateCallWithVoiceChange', { voiceSettings: { ...good, pitch: 2.1 } }, 'payload.voiceSettings.pitch', 'payload.voiceSettings.pitch: Pitch must be between 0.5 and 2'],
    ['a speed below 0.5', 'initiateCallWithVoiceChange', { voiceSettings: { ...good, speed: 0.4 } }, 'payload.voiceSettings.speed', 'payload.voiceSettings.speed: Speed must be between 0.5 and 2'],
    ['a speed between steps', 'initiateCallWithVoiceChange', { voiceSettings: { ...good, speed: 1.25 } }, 'payload.voiceSettings.speed', 'payload.voiceSettings.speed: Speed must be in steps of 0.1'],
    ['a pitch that is text', 'initiateCallWithVoiceChange', { voiceSettings: { ...good, pitch: '1.2' } }, 'payload.voiceSettings.pitch', 'payload.voiceSettings.pitch: Pitch must be a number'],
  ])('refuses %s with 400, placing no call', async (_label, action, change, field, message) => {
    const { browser, number, userId } = await caller();
    const response = await browser.post(URL, { action, payload: { from: number, to: SOUND_TEST, ...change } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({ field, message });
    expect(await callsOf(userId)).toEqual([]);
  });
});

describe('checkIncomingCalls of /functions/v1/vonage-phone', () => {
  let wsBase: string;
  beforeAll(async () => {
    wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });

  async function owner() {
    const user = await newSignedInUser(testApp.app);
    return { ...user, number: await rentANumber(user.browser) };
  }

  const check = (browser: TestBrowser, payload?: object) => browser.post(URL, { action: 'checkIncomingCalls', ...(payload ? { payload } : {}) });

  it('answers the calls ringing for the user, to the numbers named or to all of theirs', async () => {
    const ada = await owner();
    const bob = await owner();
    const bobTab = await RealtimeTab.listening(wsBase, bob.browser);
    const bobMsisdn = bob.number.slice(1);
    const quiet = await check(bob.browser, { userNumbers: [bobMsisdn], userId: bob.userId });
    expect(quiet.statusCode, quiet.body).toBe(200);
    expect(quiet.json()).toEqual({ calls: [] });

    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    const incoming = await bobTab.next('call.incoming');
    const ringing = { id: incoming.callId, from_number: ada.number, to_number: bob.number, status: 'ringing', started_at: incoming.at };
    expect((await check(bob.browser, { userNumbers: [bobMsisdn] })).json()).toEqual({ calls: [ringing] });
    expect((await check(bob.browser, { userNumbers: [bob.number] })).json()).toEqual({ calls: [ringing] });
    expect((await check(bob.browser)).json()).toEqual({ calls: [ringing] });
    // The caller's own call is outgoing, not incoming.
    expect((await check(ada.browser, {})).json()).toEqual({ calls: [] });

    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    await expect.poll(async () => (await check(bob.browser)).json()).toEqual({ calls: [] });
    bobTab.socket.close();
  });

  it('answers 403 for another user\'s id or a number that is not the user\'s, showing nothing', async () => {
    const ada = await owner();
    const eve = await owner();
    const forUser = await check(eve.browser, { userId: ada.userId });
    expect(forUser.statusCode).toBe(403);
    expect(forUser.json().error).toEqual({ code: 'forbidden', message: 'You can only manage your own phone numbers', field: 'payload.userId' });
    // Someone else's number and a number nobody rents answer alike: the answer tells nothing about either.
    for (const number of [ada.number, '+14155552671']) {
      const forNumber = await check(eve.browser, { userNumbers: [eve.number, number] });
      expect(forNumber.statusCode).toBe(403);
      expect(forNumber.json().error).toEqual({ code: 'forbidden', message: 'You can only check calls to your own phone numbers', field: 'payload.userNumbers.1' });
    }
  });

  it.each([
    ['userNumbers that is not a list', { userNumbers: '14155550123' }, 'payload.userNumbers', 'payload.userNumbers: userNumbers must be a list of phone numbers'],
    ['a number that is not one', { userNumbers: ['call me'] }, 'payload.userNumbers.0', 'payload.userNumbers.0: Each number must be a phone number, such as 14155550123'],
    ['more numbers than any plan holds', { userNumbers: Array.from({ length: 11 }, (_, i) => `1415555010${i}`) }, 'payload.userNumbers', 'payload.userNumbers: userNumbers may name at most 10 numbers'],
  ])('refuses %s with 400', async (_label, payload, field, message) => {
    const { browser } = await owner();
    const response = await check(browser, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ field, message });
  });
});
