import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { extendSubscription } from '../plans/service';
import { calls } from './schema';

// Plan minutes in calls (issue 8 point 6): Free has 10 metered minutes a month.
const OUTSIDE = '+442079460958';
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { outsideAnswerDelayMs: 100 } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

/** A user who has already talked `seconds` this month on metered calls. */
async function userWhoUsed(seconds: number) {
  const user = await newSignedInUser(testApp.app);
  const number = await rentANumber(user.browser);
  const endedAt = new Date();
  // Within this month even in its first minutes: minutes count by the month a call started in.
  const startedAt = new Date(Math.max(endedAt.getTime() - seconds * 1000, Date.UTC(endedAt.getUTCFullYear(), endedAt.getUTCMonth(), 1)));
  await testApp.database.db.insert(calls).values({
    conversationId: randomUUID(),
    userId: user.userId,
    direction: 'outbound',
    fromNumber: number,
    toNumber: OUTSIDE,
    state: 'ended',
    outcome: 'completed',
    metered: true,
    hiddenFromHistory: false,
    startedAt,
    answeredAt: startedAt,
    endedAt,
    durationSec: seconds,
  });
  return { ...user, number };
}

describe('monthly minutes in calls', () => {
  it('refuses a call to an outside number once the minutes are used up, but not the sound-test line', async () => {
    const ada = await userWhoUsed(600);
    const refused = await ada.browser.post('/api/v1/calls', { from: ada.number, to: OUTSIDE });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'minutes_used_up', message: 'Monthly minutes used up' } });
    const soundTest = await ada.browser.post('/api/v1/calls', { from: ada.number, to: '+14155550100' });
    expect(soundTest.statusCode).toBe(201);
    await ada.browser.post(`/api/v1/calls/${soundTest.json().call.id}/hangup`);
  });

  it('ends a call in progress when the minutes run out', async () => {
    const ada = await userWhoUsed(598);
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: OUTSIDE })).json();
    const media = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    await media.closed;
    const record = (await ada.browser.get(`/api/v1/calls/${placed.call.id}`)).json();
    expect(record).toMatchObject({ state: 'ended', outcome: 'completed', reason: 'Monthly minutes used up' });
    expect(record.durationSec).toBeGreaterThanOrEqual(1);
    expect(record.durationSec).toBeLessThanOrEqual(3);
  });

  it('never limits a Platinum caller', async () => {
    const ada = await userWhoUsed(100_000);
    await extendSubscription(testApp.database.db, ada.userId, 'platinum', new Date());
    const placed = await ada.browser.post('/api/v1/calls', { from: ada.number, to: OUTSIDE });
    expect(placed.statusCode).toBe(201);
    await until(async () => (await ada.browser.get(`/api/v1/calls/${placed.json().call.id}`)).json().state !== 'dialing');
    await ada.browser.post(`/api/v1/calls/${placed.json().call.id}/hangup`);
  });
});
