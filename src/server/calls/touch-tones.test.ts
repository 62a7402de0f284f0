import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { DTMF_KEYS, detectDtmf } from '../../dsp/dtmf';

const ALL_KEYS = DTMF_KEYS.join('');
const SOUND_TEST = '+14155550100';

let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { echoDelayMs: 100 } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function person() {
  const user = await newSignedInUser(testApp.app);
  return { ...user, number: await rentANumber(user.browser) };
}

/** The audio a media client received since frame `from`, scaled to ±1. */
const heardSince = (media: MediaClient, from: number) => media.audio(from);

/** Ada calls Bob, Bob answers, and both browsers' audio is connected, each sending a voice-like tone. */
async function callBetweenUsers() {
  const ada = await person();
  const bob = await person();
  const bobTab = await RealtimeTab.listening(wsBase, bob.browser);
  const adaTab = await RealtimeTab.open(wsBase, ada.browser);
  const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
  const incoming = await bobTab.next('call.incoming');
  bobTab.send({ type: 'call.answer', callId: incoming.callId });
  await bobTab.next('call.state');
  const adaMedia = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
  const bobMedia = await MediaClient.connect(`${wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(bob.browser.cookies));
  adaMedia.sendTone(220, 16_000);
  bobMedia.sendTone(330, 16_000);
  await until(() => adaMedia.received.length > 5 && bobMedia.received.length > 5);
  return { ada, bob, adaTab, bobTab, adaMedia, bobMedia, adaCallId: placed.call.id as string, bobCallId: incoming.callId };
}

describe('touch-tones', () => {
  it('between Voxline users: every key is heard in the far side’s audio, and its page is told the keys', async () => {
    const { ada, bob, adaTab, bobTab, adaMedia, bobMedia, adaCallId, bobCallId } = await callBetweenUsers();

    const bobHeardFrom = bobMedia.received.length;
    const sent = await ada.browser.post(`/api/v1/calls/${adaCallId}/dtmf`, { digits: ALL_KEYS });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ digits: ALL_KEYS, via: 'tones' });
    expect(await bobTab.next('call.dtmf')).toEqual({ type: 'call.dtmf', callId: bobCallId, digits: ALL_KEYS });
    await until(() => detectDtmf(heardSince(bobMedia, bobHeardFrom), 16_000) === ALL_KEYS, 10_000);

    const adaHeardFrom = adaMedia.received.length;
    expect((await bob.browser.post(`/api/v1/calls/${bobCallId}/dtmf`, { digits: '#0*' })).statusCode).toBe(200);
    expect(await adaTab.next('call.dtmf')).toEqual({ type: 'call.dtmf', callId: adaCallId, digits: '#0*' });
    await until(() => detectDtmf(heardSince(adaMedia, adaHeardFrom), 16_000) === '#0*', 10_000);

    await ada.browser.post(`/api/v1/calls/${adaCallId}/hangup`);
    for (const tab of [adaTab, bobTab]) tab.socket.close();
  });

  it('on the sound-test line: the keys come back in the echo', async () => {
    const ada = await person();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: SOUND_TEST })).json();
    const media = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    media.sendTone(220, 16_000);
    await until(() => media.received.length > 5);
    const from = media.received.length;
    expect((await ada.browser.post(`/api/v1/calls/${placed.call.id}/dtmf`, { digits: '*1#' })).json()).toEqual({ digits: '*1#', via: 'tones' });
    await until(() => detectDtmf(heardSince(media, from), 16_000) === '*1#', 10_000);
    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
  });

  it('refuses keys other than 0-9*#, more than 20 at once or waiting, another user’s call, and a call that is not up', async () => {
    const ada = await person();
    const eve = await person();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: SOUND_TEST })).json();
    const dtmf = (body: unknown, as = ada.browser, callId = placed.call.id as string) => as.post(`/api/v1/calls/${callId}/dtmf`, body);

    // The sound-test line answers at once, but its audio is not connected until the browser's is.
    const early = await dtmf({ digits: '1' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'no_call_up', message: expect.stringMatching(/^No call is up/) });

    // Connected but silent: no frame flows, so the keys sent wait, and the count below cannot drain meanwhile.
    await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    await until(async () => (await dtmf({ digits: '1' })).statusCode === 200);

    for (const [body, message] of [
      [{ digits: '12A' }, 'Digits may hold only 0-9, * and #'],
      [{ digits: '' }, 'Digits are required'],
      [{ digits: '1'.repeat(21) }, 'Send at most 20 digits at once'],
      [{}, 'Digits is required'],
      [{ digits: 5 }, 'Digits must be text'],
    ] as const) {
      const refused = await dtmf(body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining(message) });
    }

    expect((await dtmf({ digits: '2'.repeat(19) })).statusCode).toBe(200);
    const full = await dtmf({ digits: '3' });
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toMatchObject({ code: 'dtmf_queue_full', message: expect.stringContaining('At most 20 touch-tones can wait to be played, and 20 are waiting') });

    expect((await dtmf({ digits: '1' }, eve.browser)).statusCode).toBe(404);
    expect((await dtmf({ digits: '1' }, ada.browser, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    const ended = await dtmf({ digits: '1' });
    expect(ended.statusCode).toBe(409);
    expect(ended.json().error.code).toBe('no_call_up');
  });
});
