import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VonageNumbersFake } from '../../../tests/fakes/vonage/vonage-numbers-fake';
import type { VonageVoiceFake } from '../../../tests/fakes/vonage/vonage-voice-fake';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { until } from '../../../tests/support/until';
import { startVonageFakes, startVonageServer, voiceNumbers, type VonageServer } from '../../../tests/support/vonage-test-server';

// Touch-tones on calls Vonage carries: ours go through the Voice API's DTMF action, the far side's
// arrive as `websocket:dtmf` messages on the call's media socket.
const OUTSIDE = '+442079460958';

let numbersFake: VonageNumbersFake;
let voiceFake: VonageVoiceFake;
let server: VonageServer;

beforeAll(async () => {
  ({ numbersFake, voiceFake } = await startVonageFakes(voiceNumbers('14152010', 10)));
  server = await startVonageServer({ numbersFake, voiceFake }, { mediaConnectTimeoutMs: 3_000 });
});
afterAll(async () => {
  await server?.testApp.close();
  await voiceFake?.close();
  await numbersFake?.close();
});

async function person(listening = false) {
  const user = await newSignedInUser(server.testApp.app);
  const number = await rentANumber(user.browser);
  const tab = listening ? await RealtimeTab.listening(server.wsBase, user.browser) : await RealtimeTab.open(server.wsBase, user.browser);
  return { ...user, number, tab };
}

describe('touch-tones on Vonage calls', () => {
  it('a placed call: our keys reach the far side as digits through the DTMF action, and the far side’s keys reach our page', async () => {
    const ada = await person();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: OUTSIDE })).json();
    const media = await MediaClient.connect(`${server.wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    media.sendTone(440, 16_000);
    const far = await voiceFake.nextCall();
    await far.delivered();

    // Still ringing: nothing to send keys to.
    expect((await ada.browser.post(`/api/v1/calls/${placed.call.id}/dtmf`, { digits: '1' })).json().error.code).toBe('no_call_up');

    await far.answer();
    await until(() => far.received.length > 5);
    const sent = await ada.browser.post(`/api/v1/calls/${placed.call.id}/dtmf`, { digits: '1234*#' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ digits: '1234*#', via: 'provider' });
    expect(far.dtmfReceived).toEqual(['1234*#']);
    const [request] = voiceFake.requestsTo('PUT', `/v1/calls/${far.uuid}/dtmf`);
    expect(request).toMatchObject({ body: { digits: '1234*#' }, authProblem: null });

    far.pressKeys('9#');
    await until(() => ada.tab.messages.filter((message) => message.type === 'call.dtmf').length === 2);
    expect(ada.tab.messages.filter((message) => message.type === 'call.dtmf')).toEqual([
      { type: 'call.dtmf', callId: placed.call.id, digits: '9' },
      { type: 'call.dtmf', callId: placed.call.id, digits: '#' },
    ]);

    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    ada.tab.socket.close();
  });

  it('an incoming call: the caller’s keys reach the owner’s page, and the owner’s reach the caller', async () => {
    const ada = await person(true);
    const far = await voiceFake.callIn({
      answerUrl: `${server.origin}/api/v1/providers/vonage/answer`,
      eventUrl: `${server.origin}/api/v1/providers/vonage/events`,
      from: OUTSIDE.slice(1),
      to: ada.number.slice(1),
    });
    const incoming = await ada.tab.next('call.incoming');
    ada.tab.send({ type: 'call.answer', callId: incoming.callId });
    await ada.tab.next('call.state');
    const media = await MediaClient.connect(`${server.wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(ada.browser.cookies));
    media.sendTone(700, 16_000);
    await until(() => far.received.length > 5, 10_000);

    far.pressKeys('0');
    expect(await ada.tab.next('call.dtmf')).toEqual({ type: 'call.dtmf', callId: incoming.callId, digits: '0' });

    const sent = await ada.browser.post(`/api/v1/calls/${incoming.callId}/dtmf`, { digits: '*5' });
    expect(sent.json()).toEqual({ digits: '*5', via: 'provider' });
    expect(far.dtmfReceived).toEqual(['*5']);

    await far.hangUp();
    ada.tab.socket.close();
  });
});
