import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_BUSY, SERVER_BUSY_MESSAGE } from '../../common/api/calls';
import type { Tier } from '../../common/plans';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { extendSubscription } from '../plans/service';

let testApp: TestApp;

beforeAll(async () => {
  // Sound-test calls wait for their audio longer than the test takes: only a hang-up ends one.
  testApp = await buildTestApp({ env: { MAX_CALLS_PER_INSTANCE: '10' }, callTiming: { mediaConnectTimeoutMs: 60_000 } });
});
afterAll(() => testApp.close());

async function callerOn(tier: Tier) {
  const user = await newSignedInUser(testApp.app);
  if (tier !== 'free') await extendSubscription(testApp.database.db, user.userId, tier, new Date());
  const number = await rentANumber(user.browser);
  return {
    tier,
    browser: user.browser,
    place: () => user.browser.post('/api/v1/calls', { from: number, to: testApp.config.SOUND_TEST_NUMBER }),
  };
}

type Caller = Awaited<ReturnType<typeof callerOn>>;

async function admitted(caller: Caller): Promise<string> {
  const placed = await caller.place();
  expect(placed.statusCode, `${caller.tier}: ${placed.body}`).toBe(201);
  return placed.json().call.id as string;
}

async function refusedAsBusy(caller: Caller) {
  const placed = await caller.place();
  expect(placed.statusCode, `${caller.tier}: ${placed.body}`).toBe(503);
  expect(placed.headers['retry-after']).toBe('60');
  expect(placed.json()).toEqual({ error: { code: SERVER_BUSY, message: SERVER_BUSY_MESSAGE } });
  // Refused before the record opens: nothing in the caller's history.
  expect((await caller.browser.get('/api/v1/calls')).json().calls).toEqual([]);
}

describe('priority call reception on an instance with MAX_CALLS_PER_INSTANCE=10', () => {
  let callers: { platinum: Caller[]; free: Caller; premium: Caller; secondPremium: Caller };

  // Fourteen sign-ups take a while on a busy machine.
  beforeAll(async () => {
    // One at a time: two users renting at once would be offered the same number.
    const platinum: Caller[] = [];
    for (let i = 0; i < 11; i += 1) platinum.push(await callerOn('platinum'));
    callers = { platinum, free: await callerOn('free'), premium: await callerOn('premium'), secondPremium: await callerOn('premium') };
  }, 180_000);

  it('refuses Free calls from 9 carried, admits Premium to the cap, and Platinum up to it', async () => {
    const { platinum, free, premium, secondPremium } = callers;

    // 0 to 8 carried: Platinum calls fill the instance.
    const callIds: string[] = [];
    for (const caller of platinum.slice(0, 9)) callIds.push(await admitted(caller));

    // 9 carried (90 %): Free is refused, Premium admitted.
    await refusedAsBusy(free);
    callIds.push(await admitted(premium));

    // 10 carried, the cap: everyone is refused, Platinum too.
    await refusedAsBusy(free);
    await refusedAsBusy(secondPremium);
    await refusedAsBusy(platinum[9]!);

    // One call ends, 9 carried again: Platinum is admitted, Free still is not.
    const hungUp = await platinum[0]!.browser.post(`/api/v1/calls/${callIds[0]}/hangup`, {});
    expect(hungUp.statusCode, hungUp.body).toBe(200);
    await refusedAsBusy(free);
    await admitted(platinum[10]!);
  }, 60_000);
});
