import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, type TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { calls } from './schema';

let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { ringTimeoutMs: 1_500 } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function person() {
  const user = await newSignedInUser(testApp.app);
  return { ...user, number: await rentANumber(user.browser) };
}

const listeningTab = (browser: TestBrowser) => RealtimeTab.listening(wsBase, browser);

async function records(userId: string) {
  return testApp.database.db.select().from(calls).where(eq(calls.userId, userId));
}

describe('calls between Voxline users', () => {
  it('ring every listening tab; the first to answer gets the call, audio flows both ways, and either side can hang up', async () => {
    const ada = await person();
    const bob = await person();
    const bobLaptop = await listeningTab(bob.browser);
    const bobPhone = await listeningTab(bob.browser);

    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    expect(placed.call.state).toBe('ringing');
    const incoming = await bobLaptop.next('call.incoming');
    expect(incoming).toMatchObject({ from: ada.number, to: bob.number });
    expect((await bobPhone.next('call.incoming')).callId).toBe(incoming.callId);

    bobLaptop.send({ type: 'call.answer', callId: incoming.callId });
    expect(await bobLaptop.next('call.state')).toMatchObject({ callId: incoming.callId, state: 'answered' });
    expect(await bobPhone.next('call.ended')).toMatchObject({ callId: incoming.callId, reason: 'Answered in another tab' });
    // A second answer from the other tab is refused.
    bobPhone.send({ type: 'call.answer', callId: incoming.callId });
    await until(() => bobPhone.messages.some((m) => m.type === 'error'));

    const adaMedia = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    const bobMedia = await MediaClient.connect(`${wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(bob.browser.cookies));
    adaMedia.sendTone(440, 16_000);
    bobMedia.sendTone(660, 16_000);
    await until(() => adaMedia.received.length > 30 && bobMedia.received.length > 30);
    expect(dominantFrequency(bobMedia.audio(10), 16_000)).toBeCloseTo(440, 0);
    expect(dominantFrequency(adaMedia.audio(10), 16_000)).toBeCloseTo(660, 0);

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const hungUp = await bob.browser.post(`/api/v1/calls/${incoming.callId}/hangup`);
    expect(hungUp.json()).toMatchObject({ direction: 'inbound', state: 'ended', outcome: 'completed' });
    await adaMedia.closed;
    const [adaRecord] = await records(ada.userId);
    expect(adaRecord).toMatchObject({ direction: 'outbound', state: 'ended', outcome: 'completed', metered: false });
    expect(adaRecord!.durationSec).toBeGreaterThanOrEqual(1);
    const bobHistory = (await bob.browser.get('/api/v1/calls')).json().calls;
    expect(bobHistory[0]).toMatchObject({ direction: 'inbound', from: ada.number, outcome: 'completed' });
    for (const tab of [bobLaptop, bobPhone]) tab.socket.close();
  });

  it('sends the caller to voicemail when the callee rejects it, and keeps it as missed for the callee', async () => {
    const ada = await person();
    const bob = await person();
    const bobTab = await listeningTab(bob.browser);
    const adaTab = await RealtimeTab.open(wsBase, ada.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    const incoming = await bobTab.next('call.incoming');
    bobTab.send({ type: 'call.reject', callId: incoming.callId });
    await until(() => adaTab.messages.some((m) => m.type === 'call.state' && m.callId === placed.call.id && m.state === 'answered' && m.reason === 'Voicemail'));
    expect(await bobTab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'rejected' });
    const bobHistory = (await bob.browser.get('/api/v1/calls')).json().calls;
    expect(bobHistory[0]).toMatchObject({ direction: 'inbound', outcome: 'rejected', durationSec: 0 });
    bobTab.socket.close();
    adaTab.socket.close();
  });

  it('sends the caller to voicemail after the ring timeout, and keeps a missed call for the callee', async () => {
    const ada = await person();
    const bob = await person();
    const bobTab = await listeningTab(bob.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    await bobTab.next('call.incoming');
    expect(await bobTab.next('call.ended')).toMatchObject({ outcome: 'no-answer' });
    // Voicemail answers the caller once the callee's ringing has ended (its greeting is loaded first), so the record follows a moment later.
    await until(async () => (await ada.browser.get(`/api/v1/calls/${placed.call.id}`)).json().state === 'answered');
    bobTab.socket.close();
  });

  it('sends the caller to voicemail when the owner is not listening, and records a missed call', async () => {
    const ada = await person();
    const bob = await person();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    expect(placed.call).toMatchObject({ state: 'answered' });
    const [missed] = await testApp.database.db.select().from(calls).where(and(eq(calls.userId, bob.userId), eq(calls.direction, 'inbound')));
    expect(missed).toMatchObject({ state: 'ended', outcome: 'unavailable', fromNumber: ada.number });
  });

  it('sends the caller to voicemail when the callee is already on a call, and records a busy missed call', async () => {
    const ada = await person();
    const bob = await person();
    const bobTab = await listeningTab(bob.browser);
    const bobCall = (await bob.browser.post('/api/v1/calls', { from: bob.number, to: '+14155550100' })).json();
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    expect(placed.call).toMatchObject({ state: 'answered' });
    const [missed] = await testApp.database.db.select().from(calls).where(and(eq(calls.userId, bob.userId), eq(calls.direction, 'inbound')));
    expect(missed).toMatchObject({ state: 'ended', outcome: 'busy' });
    await bob.browser.post(`/api/v1/calls/${bobCall.call.id}/hangup`);
    bobTab.socket.close();
  });

  it('stops ringing a tab that stopped listening', async () => {
    const ada = await person();
    const bob = await person();
    const bobTab = await listeningTab(bob.browser);
    await bobTab.setListening(false);
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    expect(placed.call.state).toBe('answered');
    expect(bobTab.messages.some((m) => m.type === 'call.incoming')).toBe(false);
    bobTab.socket.close();
  });
});
