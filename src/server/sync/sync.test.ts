import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncTopic } from '../../common/realtime';
import { defaultVoiceSettings } from '../../common/voice';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { payAtCheckout, startPayment } from '../../../tests/support/sandbox-checkout';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, type TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { subscriptions } from '../plans/schema';

let testApp: TestApp;
let ws: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
  ws = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

/** The topics of each sync message the tab got after the first `from` messages. */
const syncsSince = (tab: RealtimeTab, from: number) => tab.messages.slice(from).flatMap((message) => (message.type === 'sync' ? [message.topics] : []));

/** Runs the change, then waits for the tab's first sync message after it and answers its topics. */
async function syncAfter(tab: RealtimeTab, change: () => Promise<{ statusCode: number; body: string }>, status = 200): Promise<SyncTopic[]> {
  const from = tab.messages.length;
  const response = await change();
  expect(response.statusCode, response.body).toBe(status);
  await until(() => syncsSince(tab, from).length > 0);
  return syncsSince(tab, from)[0]!;
}

/**
 * A new user on Platinum, the plan multi-device sync belongs to (docs/decisions/037-sync-on-platinum.md;
 * announce-change.test.ts shows the other plans get none).
 */
async function platinumUser(fullName: string) {
  const signedIn = await newSignedInUser(testApp.app, fullName);
  await testApp.database.db.insert(subscriptions).values({ userId: signedIn.userId, tier: 'platinum', expiresAt: new Date(Date.now() + 30 * 86_400_000) });
  return signedIn;
}

/** One user with a second tab open (another device), and another user with a tab of their own. */
async function twoUsers() {
  const owner = await platinumUser('Sam Sync');
  const otherDevice = await RealtimeTab.open(ws, owner.browser);
  const stranger = await platinumUser('Olive Other');
  const strangerTab = await RealtimeTab.open(ws, stranger.browser);
  return { owner: owner.browser, otherDevice, stranger: stranger.browser, strangerTab };
}

/**
 * The stranger's own change reaches their tab after anything sent to it before (one socket keeps
 * the order): nothing of the owner's was among what came first.
 */
async function expectNothingReached(tab: RealtimeTab, browser: TestBrowser) {
  await syncAfter(tab, () => browser.patch('/api/v1/preferences', { notifications: true }));
  expect(syncsSince(tab, 0)).toEqual([['preferences']]);
}

describe('sync messages to a user\'s other tabs (docs/architecture.md#sync)', () => {
  it('announces each change of contacts, numbers, voice, preferences and account to the user\'s other tab, and to nobody else', async () => {
    const { owner, otherDevice, stranger, strangerTab } = await twoUsers();

    const created = await owner.post('/api/v1/contacts', { name: 'Ada', phoneNumber: '+14155550123' });
    expect(created.statusCode, created.body).toBe(201);
    expect(await otherDevice.next('sync')).toEqual({ type: 'sync', topics: ['contacts'] });
    const contactId = created.json().id as string;
    expect(await syncAfter(otherDevice, () => owner.patch(`/api/v1/contacts/${contactId}`, { name: 'Ada L.' }))).toEqual(['contacts']);
    expect(await syncAfter(otherDevice, () => owner.delete(`/api/v1/contacts/${contactId}`))).toEqual(['contacts']);

    const from = otherDevice.messages.length;
    const number = await rentANumber(owner);
    await until(() => syncsSince(otherDevice, from).length > 0);
    expect(syncsSince(otherDevice, from)).toEqual([['numbers']]);
    const numberId = ((await owner.get('/api/v1/numbers')).json().numbers as { id: string; phoneNumber: string }[]).find((one) => one.phoneNumber === number)!.id;
    expect(await syncAfter(otherDevice, () => owner.patch(`/api/v1/numbers/${numberId}`, { friendlyName: 'Work' }))).toEqual(['numbers']);
    expect(await syncAfter(otherDevice, () => owner.delete(`/api/v1/numbers/${numberId}`))).toEqual(['numbers']);

    expect(await syncAfter(otherDevice, () => owner.request('PUT', '/api/v1/voice-settings', defaultVoiceSettings))).toEqual(['voice']);
    expect(await syncAfter(otherDevice, () => owner.patch('/api/v1/preferences', { darkMode: true }))).toEqual(['preferences']);
    expect(await syncAfter(otherDevice, () => owner.patch('/api/v1/account', { fullName: 'Samuel Sync' }))).toEqual(['account']);

    await expectNothingReached(strangerTab, stranger);
    otherDevice.socket.close();
    strangerTab.socket.close();
  });

  it('announces nothing for a change that was refused', async () => {
    const { owner, otherDevice } = await twoUsers();
    const refused = await owner.post('/api/v1/contacts', { name: '', phoneNumber: '+14155550123' });
    expect(refused.statusCode).toBe(400);
    // The next change's sync is the first the tab gets: the refused one sent none before it.
    expect(await syncAfter(otherDevice, () => owner.patch('/api/v1/preferences', { darkMode: false }))).toEqual(['preferences']);
    expect(syncsSince(otherDevice, 0)).toEqual([['preferences']]);
    otherDevice.socket.close();
  });

  it('announces the history when a call ends, and the subscription when a payment activates a plan', async () => {
    const { owner, otherDevice, stranger, strangerTab } = await twoUsers();
    const number = await rentANumber(owner);
    await until(() => syncsSince(otherDevice, 0).length > 0);
    const placed = await owner.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const callId = placed.json().call.id as string;
    expect(await syncAfter(otherDevice, () => owner.post(`/api/v1/calls/${callId}/hangup`))).toEqual(['history']);

    const payment = await startPayment(owner, { planType: 'platinum' });
    await payAtCheckout(testApp.app, payment.paymentUrl);
    expect(await syncAfter(otherDevice, () => owner.post(`/api/v1/payments/${payment.reference}/verify`))).toEqual(['subscription']);

    await expectNothingReached(strangerTab, stranger);
    otherDevice.socket.close();
    strangerTab.socket.close();
  });

  it('sends no sync to the other tab of a Free or a Premium user, until they pay for Platinum', async () => {
    for (const tier of ['free', 'premium'] as const) {
      const { browser, userId } = await newSignedInUser(testApp.app, `On ${tier}`);
      if (tier === 'premium') await testApp.database.db.insert(subscriptions).values({ userId, tier, expiresAt: new Date(Date.now() + 30 * 86_400_000) });
      const otherDevice = await RealtimeTab.open(ws, browser);
      expect((await browser.post('/api/v1/contacts', { name: 'Ada', phoneNumber: '+14155550123' })).statusCode).toBe(201);
      expect((await browser.patch('/api/v1/preferences', { darkMode: true })).statusCode).toBe(200);

      // The payment's sync is the first the tab gets: one socket keeps the order, and the changes before it sent none.
      const payment = await startPayment(browser, { planType: 'platinum' });
      await payAtCheckout(testApp.app, payment.paymentUrl);
      expect(await syncAfter(otherDevice, () => browser.post(`/api/v1/payments/${payment.reference}/verify`))).toEqual(['subscription']);
      expect(syncsSince(otherDevice, 0)).toEqual([['subscription']]);
      otherDevice.socket.close();
    }
  });

  it('shows a missed call in the history of a callee who was not taking calls', async () => {
    const caller = await newSignedInUser(testApp.app, 'Cal Caller');
    const callee = await platinumUser('Nell Notlistening');
    const calleeTab = await RealtimeTab.open(ws, callee.browser);
    const [from, to] = [await rentANumber(caller.browser), await rentANumber(callee.browser)];
    await until(() => syncsSince(calleeTab, 0).length > 0);
    expect(await syncAfter(calleeTab, () => caller.browser.post('/api/v1/calls', { from, to }), 201)).toEqual(['history']);
    const history = (await callee.browser.get('/api/v1/calls')).json().calls as { direction: string; outcome: string }[];
    expect(history).toContainEqual(expect.objectContaining({ direction: 'inbound', outcome: 'unavailable' }));
    calleeTab.socket.close();
  });
});
