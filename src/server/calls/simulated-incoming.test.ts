import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toE164 } from '../../common/phone';
import { rms } from '../../../tests/support/dsp/analysis';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { calls } from './schema';
import { simulatedCallerPhrase } from './simulated-caller-voice';
import { randomUsNumber } from './simulated-incoming';

async function startApp(rate: string) {
  const testApp = await buildTestApp({
    env: { SIMULATED_INCOMING_RATE: rate },
    mailer: capturingMailer(),
    callTiming: { simulatedIncomingPollMs: 100, ringTimeoutMs: 1_500 },
  });
  const wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  return { testApp, wsBase };
}

describe('the virtual carrier’s simulated incoming calls, at a rate of 1', () => {
  let testApp: TestApp;
  let wsBase: string;
  beforeAll(async () => ({ testApp, wsBase } = await startApp('1')));
  afterAll(() => testApp.close());

  it('rings a listening user from a random number; answered, the caller speaks its phrase until the user hangs up', async () => {
    const user = await newSignedInUser(testApp.app);
    const number = await rentANumber(user.browser);
    const tab = await RealtimeTab.listening(wsBase, user.browser);

    const incoming = await tab.next('call.incoming');
    expect(incoming.to).toBe(number);
    expect(toE164(incoming.from)).toBe(incoming.from);
    tab.send({ type: 'call.answer', callId: incoming.callId });
    expect(await tab.next('call.state')).toMatchObject({ callId: incoming.callId, state: 'answered' });

    const media = await MediaClient.connect(`${wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(user.browser.cookies));
    await until(() => media.received.length >= 100, 10_000);
    // Both ends are at 16 kHz, so the phrase arrives sample for sample.
    const heard = media.audio().subarray(0, 100 * 320);
    const phrase = simulatedCallerPhrase(16_000).subarray(0, heard.length);
    expect(heard.every((sample, i) => sample === phrase[i]! / 32768)).toBe(true);
    expect(rms(heard)).toBeGreaterThan(0.01);

    const hungUp = await user.browser.post(`/api/v1/calls/${incoming.callId}/hangup`);
    expect(hungUp.json()).toMatchObject({ direction: 'inbound', from: incoming.from, state: 'ended', outcome: 'completed' });
    await media.closed;
    expect(await tab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'completed' });
    tab.socket.close();
  });

  it('never rings a user who is on a call, and leaves an unanswered one in the history as missed', async () => {
    const user = await newSignedInUser(testApp.app);
    await rentANumber(user.browser);
    const tab = await RealtimeTab.listening(wsBase, user.browser);
    const incoming = await tab.next('call.incoming');
    // Ringing counts as a call: no second one rings over it.
    expect(await tab.next('call.ended')).toMatchObject({ callId: incoming.callId, outcome: 'no-answer' });
    const endedAt = tab.messages.findIndex((m) => m.type === 'call.ended');
    expect(tab.messages.slice(0, endedAt).filter((m) => m.type === 'call.incoming')).toHaveLength(1);
    const [missed] = await testApp.database.db.select().from(calls).where(eq(calls.id, incoming.callId));
    expect(missed).toMatchObject({ direction: 'inbound', state: 'ended', outcome: 'no-answer', fromNumber: incoming.from, durationSec: 0 });
    tab.socket.close();
  });

  it('rings nobody who is not listening, or has no number', async () => {
    const idle = await newSignedInUser(testApp.app);
    await rentANumber(idle.browser);
    const idleTab = await RealtimeTab.open(wsBase, idle.browser);
    const numberless = await newSignedInUser(testApp.app);
    const numberlessTab = await RealtimeTab.listening(wsBase, numberless.browser);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect([...idleTab.messages, ...numberlessTab.messages].filter((m) => m.type === 'call.incoming')).toEqual([]);
    idleTab.socket.close();
    numberlessTab.socket.close();
  });
});

describe('the virtual carrier’s simulated incoming calls, at a rate of 0', () => {
  let testApp: TestApp;
  let wsBase: string;
  beforeAll(async () => ({ testApp, wsBase } = await startApp('0')));
  afterAll(() => testApp.close());

  it('never rings a listening user', async () => {
    const user = await newSignedInUser(testApp.app);
    await rentANumber(user.browser);
    const tab = await RealtimeTab.listening(wsBase, user.browser);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(tab.messages.filter((m) => m.type === 'call.incoming')).toEqual([]);
    tab.socket.close();
  });
});

describe('randomUsNumber', () => {
  it('makes valid US numbers, never in the 555 exchange', () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 500; i += 1) {
      const number = randomUsNumber(random);
      expect(toE164(number)).toBe(number);
      expect(number.slice(5, 8)).not.toBe('555');
    }
  });
});
