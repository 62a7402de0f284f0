import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import type { VonageNumbersFake } from '../../../tests/fakes/vonage/vonage-numbers-fake';
import { FAKE_SIGNATURE_SECRET, signWebhook, type VonageVoiceFake } from '../../../tests/fakes/vonage/vonage-voice-fake';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { until } from '../../../tests/support/until';
import { beepHeardBy } from '../../../tests/support/voicemail-audio';
import { APPLICATION_ID, startVonageFakes, startVonageServer, voiceNumbers, type VonageServer } from '../../../tests/support/vonage-test-server';
import { calls } from './schema';

// Someone outside calls a number rented through Vonage: the Voice API fake asks our answer
// webhook what to do, connects the caller to our media socket like Vonage, and speaks a tone.
const CALLER = '442079460958';

let numbersFake: VonageNumbersFake;
let voiceFake: VonageVoiceFake;
let server: VonageServer;
/** Ringing gives up after a second. */
let quick: VonageServer;

beforeAll(async () => {
  ({ numbersFake, voiceFake } = await startVonageFakes(voiceNumbers('14152008', 20)));
  server = await startVonageServer({ numbersFake, voiceFake }, { mediaConnectTimeoutMs: 3_000 });
  quick = await startVonageServer({ numbersFake, voiceFake }, { ringTimeoutMs: 1_000 });
});
afterAll(async () => {
  await server?.testApp.close();
  await quick?.testApp.close();
  await voiceFake?.close();
  await numbersFake?.close();
});

async function callee(on: VonageServer, listening = true) {
  const user = await newSignedInUser(on.testApp.app);
  const number = await rentANumber(user.browser);
  const tab = listening ? await RealtimeTab.listening(on.wsBase, user.browser) : await RealtimeTab.open(on.wsBase, user.browser);
  return { ...user, number, tab };
}

const callIn = (on: VonageServer, to: string, method: 'GET' | 'POST' = 'GET') =>
  voiceFake.callIn({
    answerUrl: `${on.origin}/api/v1/providers/vonage/answer`,
    eventUrl: `${on.origin}/api/v1/providers/vonage/events`,
    from: CALLER,
    to: to.replace('+', ''),
    method,
  });

const recordsOf = (on: VonageServer, userId: string) => on.testApp.database.db.select().from(calls).where(eq(calls.userId, userId));

describe('Vonage inbound calls', () => {
  it('ring the owner’s tab; answered, audio flows both ways until the caller hangs up', async () => {
    const ada = await callee(server);
    const far = await callIn(server, ada.number);
    expect(far.status).toBe('answered');
    const incoming = await ada.tab.next('call.incoming');
    expect(incoming).toMatchObject({ from: `+${CALLER}`, to: ada.number });

    ada.tab.send({ type: 'call.answer', callId: incoming.callId });
    expect(await ada.tab.next('call.state')).toMatchObject({ callId: incoming.callId, state: 'answered' });
    const media = await MediaClient.connect(`${server.wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(ada.browser.cookies));
    media.sendTone(700, 16_000);
    await until(() => media.received.length > 40 && far.received.length > 40, 10_000);
    expect(dominantFrequency(media.audio(10), 16_000)).toBeCloseTo(500, 0);
    expect(dominantFrequency(far.audio(10), 16_000)).toBeCloseTo(700, 0);

    // The caller hangs up: Vonage closes the socket and posts `completed` to the application's event URL.
    await far.hangUp();
    expect(await ada.tab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'completed' });
    await media.closed;
    const [record] = await recordsOf(server, ada.userId);
    expect(record).toMatchObject({ direction: 'inbound', state: 'ended', outcome: 'completed', fromNumber: `+${CALLER}`, toNumber: ada.number, metered: false });
    ada.tab.socket.close();
  });

  it('hang up at Vonage when the owner ends the call', async () => {
    const ada = await callee(server);
    const far = await callIn(server, ada.number, 'POST');
    const incoming = await ada.tab.next('call.incoming');
    ada.tab.send({ type: 'call.answer', callId: incoming.callId });
    await ada.tab.next('call.state');
    const media = await MediaClient.connect(`${server.wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(ada.browser.cookies));
    await until(() => media.received.length > 5);
    expect((await ada.browser.post(`/api/v1/calls/${incoming.callId}/hangup`)).json()).toMatchObject({ outcome: 'completed' });
    await until(() => far.isOver);
    expect(voiceFake.requestsTo('PUT', `/v1/calls/${far.uuid}`).map((request) => request.body)).toEqual([{ action: 'hangup' }]);
    ada.tab.socket.close();
  });

  it('send the caller to voicemail when the owner is not taking calls: greeting, beep, a message the owner is told of, linked to the missed call', async () => {
    const ada = await callee(server, false);
    const far = await callIn(server, ada.number);
    expect(far.status).toBe('answered');
    expect(far.spoken).toEqual([]);
    // The caller speaks a 500 Hz tone all along: what follows the beep is the message.
    await beepHeardBy(far);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await far.hangUp();
    const news = await ada.tab.next('voicemail.new');
    expect(news.from).toBe(`+${CALLER}`);
    const [missed] = await recordsOf(server, ada.userId);
    expect(missed).toMatchObject({ direction: 'inbound', state: 'ended', outcome: 'unavailable', fromNumber: `+${CALLER}` });
    const [message] = (await ada.browser.get('/api/v1/voicemail')).json().voicemails;
    expect(message).toMatchObject({ id: news.voicemailId, callId: missed!.id, from: `+${CALLER}`, to: ada.number });
    expect(message.durationSec).toBeGreaterThanOrEqual(1);
    expect(ada.tab.messages.filter((m) => m.type === 'call.incoming')).toEqual([]);
    ada.tab.socket.close();
  });

  it('send the caller to voicemail when the owner does not answer, or declines', async () => {
    const ada = await callee(quick);
    const unanswered = await callIn(quick, ada.number);
    await beepHeardBy(unanswered);
    await unanswered.hangUp();

    const declined = await callIn(quick, ada.number);
    await until(() => ada.tab.messages.filter((m) => m.type === 'call.incoming').length === 2);
    const incoming = ada.tab.messages.filter((m) => m.type === 'call.incoming').at(-1)!;
    ada.tab.send({ type: 'call.reject', callId: incoming.callId });
    await beepHeardBy(declined);
    await declined.hangUp();
    expect([unanswered.spoken, declined.spoken]).toEqual([[], []]);
    // Vonage may be told before the record is written: wait for both records to end.
    await until(async () => (await recordsOf(quick, ada.userId)).every((record) => record.state === 'ended'));
    const outcomes = (await recordsOf(quick, ada.userId)).map((record) => record.outcome).sort();
    expect(outcomes).toEqual(['no-answer', 'rejected']);
    ada.tab.socket.close();
  });

  it('say a number nobody rents is not in service', async () => {
    const far = await callIn(server, '+14152009999');
    expect(far.spoken).toEqual(['The number you have called is not in service.']);
  });

  it('refuse an unsigned or forged answer webhook, changing nothing', async () => {
    const ada = await callee(server);
    const query = new URLSearchParams({ to: ada.number.replace('+', ''), from: CALLER, uuid: 'forged-uuid', conversation_uuid: 'CON-forged' });
    const url = `${server.origin}/api/v1/providers/vonage/answer?${query.toString()}`;
    const unsigned = await fetch(url);
    const forged = await fetch(url, { headers: { authorization: `Bearer ${signWebhook('', 'not-the-signature-secret', { applicationId: APPLICATION_ID })}` } });
    expect([unsigned.status, forged.status]).toEqual([401, 401]);
    expect(await forged.json()).toMatchObject({ error: { code: 'invalid_signature', message: 'The webhook signature could not be verified' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ada.tab.messages.filter((m) => m.type === 'call.incoming')).toEqual([]);
    expect(await recordsOf(server, ada.userId)).toEqual([]);
    ada.tab.socket.close();
  });

  it('answer a webhook that names no number with 400', async () => {
    const body = JSON.stringify({ uuid: 'x', from: CALLER });
    const response = await fetch(`${server.origin}/api/v1/providers/vonage/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signWebhook(body, FAKE_SIGNATURE_SECRET, { applicationId: APPLICATION_ID })}` },
      body,
    });
    expect(response.status).toBe(400);
  });
});
