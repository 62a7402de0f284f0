import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dominantFrequency } from '../support/dsp/analysis';
import { calls } from '../../src/server/calls/schema';
import type { VonageNumbersFake } from '../fakes/vonage/vonage-numbers-fake';
import { FAKE_SIGNATURE_SECRET, signWebhook, type VonageVoiceFake } from '../fakes/vonage/vonage-voice-fake';
import { newSignedInUser, rentANumber } from '../support/accounts';
import { cookieHeader, MediaClient } from '../support/media-client';
import { RealtimeTab } from '../support/realtime-tab';
import { TestBrowser } from '../support/test-browser';
import { until } from '../support/until';
import { APPLICATION_ID, startVonageFakes, startVonageServer, voiceNumbers, type VonageServer } from '../support/vonage-test-server';

const shared = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);
const OUTSIDE = '+442079460958';

/**
 * Two instances under TELEPHONY=vonage behind a load balancer, each with its own
 * VONAGE_CALLBACK_URL (docs/deploy.md): the application's answer and event URLs reach whichever
 * instance the balancer picks, a call's own media socket and events reach the instance holding it.
 */
describe.skipIf(!shared)('Vonage calls across two instances', () => {
  let numbersFake: VonageNumbersFake;
  let voiceFake: VonageVoiceFake;
  let one: VonageServer;
  let two: VonageServer;

  beforeAll(async () => {
    ({ numbersFake, voiceFake } = await startVonageFakes(voiceNumbers('14152006', 10)));
    const redisUrl = process.env.TEST_REDIS_URL ?? '';
    one = await startVonageServer({ numbersFake, voiceFake }, { mediaConnectTimeoutMs: 3_000 }, { redisUrl });
    two = await startVonageServer({ numbersFake, voiceFake }, { mediaConnectTimeoutMs: 3_000 }, { redisUrl, database: one.testApp.database });
  });
  afterAll(async () => {
    await two?.testApp.close();
    await one?.testApp.close();
    await voiceFake?.close();
    await numbersFake?.close();
  });

  const recordsOf = (userId: string) => one.testApp.database.db.select().from(calls).where(eq(calls.userId, userId));

  /** The same signed-in browser, its requests going to `on`. */
  function browserOn(on: VonageServer, browser: TestBrowser) {
    const moved = new TestBrowser(on.testApp.app);
    for (const [name, value] of browser.cookies) moved.cookies.set(name, value);
    return moved;
  }

  it('rings a tab on instance 1 for an outside call answered by instance 2; audio relayed both ways; the caller’s hang-up event, posted to instance 1, ends it', async () => {
    const ada = await newSignedInUser(one.testApp.app, 'Ada Listener');
    const number = await rentANumber(ada.browser);
    const tab = await RealtimeTab.listening(one.wsBase, ada.browser);

    const far = await voiceFake.callIn({
      answerUrl: `${two.origin}/api/v1/providers/vonage/answer`,
      eventUrl: `${one.origin}/api/v1/providers/vonage/events`,
      from: OUTSIDE.slice(1),
      to: number.slice(1),
    });
    // Instance 2 answered the webhook: the caller's audio connects to instance 2's own address.
    expect(far.websocketEndpoint.uri.startsWith(`${two.wsBase}/api/v1/providers/vonage/media?token=`)).toBe(true);
    const incoming = await tab.next('call.incoming');
    expect(incoming).toMatchObject({ from: OUTSIDE, to: number });

    tab.send({ type: 'call.answer', callId: incoming.callId });
    expect(await tab.next('call.state')).toMatchObject({ callId: incoming.callId, state: 'answered' });
    const media = await MediaClient.connect(`${one.wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(ada.browser.cookies));
    media.sendTone(700, 16_000);
    await until(() => media.received.length > 40 && far.received.length > 40, 10_000);
    expect(dominantFrequency(media.audio(10), 16_000)).toBeCloseTo(500, 0);
    expect(dominantFrequency(far.audio(10), 16_000)).toBeCloseTo(700, 0);

    // Vonage's `completed` for the caller's leg goes to the application's event URL, here instance
    // 1, before the media socket on instance 2 goes: instance 2 must still hear of it.
    const completed = JSON.stringify({ uuid: far.uuid, conversation_uuid: far.conversationUuid, status: 'completed', direction: 'inbound', from: OUTSIDE.slice(1), to: number.slice(1), timestamp: new Date().toISOString() });
    const posted = await fetch(`${one.origin}/api/v1/providers/vonage/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signWebhook(completed, FAKE_SIGNATURE_SECRET, { applicationId: APPLICATION_ID })}` },
      body: completed,
    });
    expect(posted.status).toBe(200);
    expect(await tab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'completed' });
    await media.closed;
    await until(() => far.isOver);
    // Vonage said the call was over: nobody asks it to hang up again.
    expect(voiceFake.requestsTo('PUT', `/v1/calls/${far.uuid}`)).toEqual([]);
    const [record] = await recordsOf(ada.userId);
    expect(record).toMatchObject({ direction: 'inbound', state: 'ended', outcome: 'completed', providerCallId: far.uuid });
    tab.socket.close();
  });

  it('places a call through instance 2 with the browser’s audio on instance 1: Vonage reaches instance 2, audio both ways, hung up through instance 1', async () => {
    const bob = await newSignedInUser(two.testApp.app, 'Bob Caller');
    const number = await rentANumber(bob.browser);
    const placed = await bob.browser.post('/api/v1/calls', { from: number, to: OUTSIDE });
    expect(placed.statusCode, placed.body).toBe(201);
    const { call, mediaPath } = placed.json() as { call: { id: string }; mediaPath: string };
    const media = await MediaClient.connect(`${one.wsBase}${mediaPath}`, cookieHeader(bob.browser.cookies));
    const far = await voiceFake.nextCall();
    expect(far.request.event_url).toEqual([`${two.origin}/api/v1/providers/vonage/events?call=${call.id}`]);
    expect(far.websocketEndpoint.uri.startsWith(`${two.wsBase}/api/v1/providers/vonage/media?token=`)).toBe(true);

    await far.answer(600);
    media.sendTone(300, 16_000);
    await until(() => media.received.length > 40 && far.received.length > 40, 10_000);
    expect(dominantFrequency(media.audio(10), 16_000)).toBeCloseTo(600, 0);
    expect(dominantFrequency(far.audio(10), 16_000)).toBeCloseTo(300, 0);

    const hungUp = await browserOn(one, bob.browser).post(`/api/v1/calls/${call.id}/hangup`);
    expect(hungUp.statusCode, hungUp.body).toBe(200);
    await until(() => far.isOver);
    await media.closed;
    await until(async () => (await recordsOf(bob.userId))[0]?.state === 'ended');
    expect((await recordsOf(bob.userId))[0]).toMatchObject({ direction: 'outbound', outcome: 'completed', providerCallId: far.uuid });
  });
});
