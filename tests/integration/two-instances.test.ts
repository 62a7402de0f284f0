import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dominantFrequency } from '../support/dsp/analysis';
import { extendSubscription } from '../../src/server/plans/service';
import { newSignedInUser, rentANumber } from '../support/accounts';
import { cookieHeader, MediaClient } from '../support/media-client';
import { RealtimeTab } from '../support/realtime-tab';
import { buildTestApp, type TestApp } from '../support/test-app';
import { capturingMailer, TestBrowser } from '../support/test-browser';
import { until } from '../support/until';

const shared = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);

/** Two instances behind a load balancer: one PostgreSQL database, one Redis. */
describe.skipIf(!shared)('two instances sharing PostgreSQL and Redis', () => {
  let one: TestApp;
  let two: TestApp;
  let wsOne: string;

  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    one = await buildTestApp({ env, mailer: capturingMailer() });
    two = await buildTestApp({ env, mailer: capturingMailer(), database: one.database });
    wsOne = (await one.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    await two.app.ready();
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('rings a user listening on instance 1 when someone calls their number through instance 2', async () => {
    const callee = await newSignedInUser(one.app, 'Ada Listener');
    const calleeNumber = await rentANumber(callee.browser);
    const tab = await RealtimeTab.listening(wsOne, callee.browser);
    const caller = await newSignedInUser(two.app, 'Bob Caller');
    const callerNumber = await rentANumber(caller.browser);

    const placed = await caller.browser.post('/api/v1/calls', { from: callerNumber, to: calleeNumber });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().call.state).toBe('ringing');
    const incoming = await tab.next('call.incoming');
    expect(incoming).toMatchObject({ from: callerNumber, to: calleeNumber });

    // The caller giving up reaches the callee's tab on the other instance too.
    const cancelled = await caller.browser.post(`/api/v1/calls/${placed.json().call.id}/hangup`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await tab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'cancelled' });
    expect(tab.messages.filter((message) => message.type === 'call.incoming')).toHaveLength(1);
    tab.socket.close();
  });

  it('finds the callee unavailable on every instance once their only listening tab stops', async () => {
    const callee = await newSignedInUser(one.app, 'Cy Away');
    const calleeNumber = await rentANumber(callee.browser);
    const tab = await RealtimeTab.listening(wsOne, callee.browser);
    await tab.setListening(false);
    const caller = await newSignedInUser(two.app, 'Di Caller');
    const callerNumber = await rentANumber(caller.browser);
    const placed = await caller.browser.post('/api/v1/calls', { from: callerNumber, to: calleeNumber });
    expect(placed.statusCode, placed.body).toBe(201);
    // Nobody takes it: the owner's voicemail answers, their record a missed call (docs/calls.md#voicemail).
    expect(placed.json().call).toMatchObject({ state: 'answered' });
    tab.socket.close();
  });

  it('gives a call held by instance 2 the voice settings saved through instance 1, its audio relayed through instance 1', async () => {
    const ada = await newSignedInUser(two.app, 'Ada Premium');
    const number = await rentANumber(ada.browser);
    await extendSubscription(two.database.db, ada.userId, 'premium', new Date());
    const placed = await ada.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const media = await MediaClient.connect(`${wsOne}${placed.json().mediaPath}`, cookieHeader(ada.browser.cookies));
    media.sendTone(220, 16_000);
    await until(() => media.received.length >= 60, 10_000);
    expect(Math.abs(dominantFrequency(media.audio(40), 16_000) - 220)).toBeLessThan(220 * 0.02);

    const onOne = new TestBrowser(one.app);
    for (const [name, value] of ada.browser.cookies) onOne.cookies.set(name, value);
    const saved = await onOne.request('PUT', '/api/v1/voice-settings', { voiceType: 'normal', pitch: 2, speed: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    // The sound-test line plays back what it heard 300 ms earlier: skip what was on its way.
    const from = media.received.length + 30;
    await until(() => media.received.length >= from + 30, 10_000);
    expect(Math.abs(dominantFrequency(media.audio(from), 16_000) - 440)).toBeLessThan(440 * 0.02);

    media.close();
    await until(async () => (await onOne.get(`/api/v1/calls/${placed.json().call.id}`)).json().state === 'ended');
  });
});
