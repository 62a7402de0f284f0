import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../common/api/session';
import { DEFAULT_SOUND_TEST_NUMBER } from '../../common/calls';
import { callCore } from '../../../tests/support/call-core';
import { joinTab } from '../../../tests/support/fake-realtime-socket';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { user } from '../auth/schema';
import type { DatabaseHandle } from '../db/client';
import { Draining } from '../health/draining';
import { AppError } from '../http/app-error';
import { phoneNumbers, type PhoneNumberStatus } from '../numbers/schema';
import { placeCall, type CallPlacingDependencies } from './call-placing';
import { calls } from './schema';
import { defaultCallTiming } from './timing';

const OUTSIDE = '+442079460958';
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Placing on one instance: the real hub, live calls, ringing and provider side, on the virtual carrier. */
function setUp(soundTestNumber = DEFAULT_SOUND_TEST_NUMBER) {
  const { hub, instanceId, timing, live, ringing, provider } = callCore(database.db, { timing: { ...defaultCallTiming, outsideAnswerDelayMs: 50, echoDelayMs: 20 } });
  const draining = new Draining();
  const deps: CallPlacingDependencies = { db: database.db, timing, soundTestNumber, instanceId, draining, maxCalls: 1000, live, ringing, provider };

  /** A tab of `userId` that has started taking calls. */
  const listeningTab = async (userId: string) => {
    const socket = joinTab(hub, userId);
    await socket.startListening();
    return socket;
  };
  return { deps, live, listeningTab, draining };
}

let numbersHanded = 0;
/** A valid number no one holds yet. */
const freshNumber = () => `+44207946${(1000 + (numbersHanded += 1)).toString()}`;

/** A Voxline user holding one number (rented, unless `status` says otherwise). */
async function person(status: PhoneNumberStatus = 'rented') {
  const id = randomUUID();
  await database.db.insert(user).values({ id, name: 'Voxline user', email: `${id}@example.com` });
  const number = freshNumber();
  await holdNumber(id, number, status);
  const session: SessionUser = { id, email: `${id}@example.com`, fullName: 'Voxline user' };
  return { session, number };
}

async function holdNumber(userId: string, phoneNumber: string, status: PhoneNumberStatus = 'rented') {
  await database.db.insert(phoneNumbers).values({ userId, phoneNumber, country: 'GB', status, provider: 'local' });
}

const recordsOf = (userId: string) => database.db.select().from(calls).where(eq(calls.userId, userId));

/** The AppError a refused placing throws, as the client reads it. */
async function refusal(placing: Promise<unknown>) {
  const error = await placing.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  const { statusCode, code, message, field } = error as AppError;
  return { statusCode, code, message, field };
}

describe('placeCall routes `to` by the first rule that matches', () => {
  it('the sound-test number: the echo answers at once, unmetered, even when a Voxline user holds that number', async () => {
    const holder = await person();
    const { deps, live } = setUp(holder.number);
    const ada = await person();

    const placed = await placeCall(deps, ada.session, { from: ada.number, to: holder.number });
    expect(placed.call).toMatchObject({ direction: 'outbound', from: ada.number, to: holder.number, state: 'answered' });
    expect(placed.mediaPath).toBe(`/api/v1/calls/${placed.call.id}/media`);
    const call = live.get(placed.call.id);
    expect(call?.callee?.kind).toBe('echo');
    expect(call?.inbound).toBeNull();
    expect(await recordsOf(holder.session.id)).toEqual([]);
    const [record] = await recordsOf(ada.session.id);
    expect(record).toMatchObject({ state: 'answered', metered: false, instanceId: deps.instanceId });
  });

  it('a number another Voxline user holds: their listening tabs ring, the call stays in Voxline, unmetered', async () => {
    const { deps, live, listeningTab } = setUp();
    const ada = await person();
    const bob = await person();
    const bobTab = await listeningTab(bob.session.id);

    const placed = await placeCall(deps, ada.session, { from: ada.number, to: bob.number });
    expect(placed.call).toMatchObject({ to: bob.number, state: 'ringing' });
    expect(bobTab.of('call.incoming')[0]).toMatchObject({ from: ada.number, to: bob.number });
    expect(live.get(placed.call.id)?.callee).toBeNull();
    expect(live.get(placed.call.id)?.inbound?.userId).toBe(bob.session.id);
    expect((await recordsOf(ada.session.id))[0]).toMatchObject({ metered: false });
    expect((await recordsOf(bob.session.id))[0]).toMatchObject({ direction: 'inbound', state: 'ringing', fromNumber: ada.number });
  });

  it('a number a Voxline user is still renting never leaves Voxline either', async () => {
    const { deps, listeningTab } = setUp();
    const ada = await person();
    const cleo = await person('renting');
    const cleoTab = await listeningTab(cleo.session.id);

    const placed = await placeCall(deps, ada.session, { from: ada.number, to: cleo.number });
    expect(placed.call.state).toBe('ringing');
    expect(cleoTab.of('call.incoming')).toHaveLength(1);
    expect((await recordsOf(ada.session.id))[0]).toMatchObject({ metered: false });
  });

  it('any other valid number: the phone network carries it, metered, and the far side answers later', async () => {
    const { deps, live } = setUp();
    const ada = await person();

    const placed = await placeCall(deps, ada.session, { from: ada.number, to: ` ${OUTSIDE} ` });
    expect(placed.call).toMatchObject({ to: OUTSIDE, state: 'ringing' });
    const call = live.get(placed.call.id)!;
    expect(call.metered).toBe(true);
    expect(call.inbound).toBeNull();
    expect((await recordsOf(ada.session.id))[0]).toMatchObject({ toNumber: OUTSIDE, metered: true });
    await until(() => call.answeredAt !== null);
    expect(call.callee?.kind).toBe('echo');
  });
});

describe('placeCall refuses, leaving no record', () => {
  it.each([
    ['an invalid number', '+999'],
    ['a number without its + (E.164 only)', OUTSIDE.slice(1)],
  ])('%s to call', async (_label, to) => {
    const { deps } = setUp();
    const ada = await person();
    expect(await refusal(placeCall(deps, ada.session, { from: ada.number, to }))).toEqual({
      statusCode: 400,
      code: 'invalid_input',
      message: 'Enter a valid phone number to call',
      field: 'to',
    });
    expect(await recordsOf(ada.session.id)).toEqual([]);
  });

  it('a from number that is not the user’s rented one: another user’s, or one still being rented', async () => {
    const { deps } = setUp();
    const ada = await person();
    const bob = await person();
    const renting = freshNumber();
    await holdNumber(ada.session.id, renting, 'renting');
    const expected = { statusCode: 400, code: 'no_phone_number', message: 'No phone number available', field: 'from' };

    expect(await refusal(placeCall(deps, ada.session, { from: bob.number, to: OUTSIDE }))).toEqual(expected);
    expect(await refusal(placeCall(deps, ada.session, { from: renting, to: OUTSIDE }))).toEqual(expected);
    expect(await recordsOf(ada.session.id)).toEqual([]);
  });

  it('any call while the instance drains, saying to try again in a moment', async () => {
    const { deps, draining } = setUp();
    const ada = await person();
    draining.begin();
    const error = await placeCall(deps, ada.session, { from: ada.number, to: DEFAULT_SOUND_TEST_NUMBER }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ statusCode: 503, code: 'server_draining', message: 'This server is restarting. Try your call again in a moment.', cause: { retryAfterSec: 2 } });
    expect(await recordsOf(ada.session.id)).toEqual([]);
  });

  it('a second call while one is in progress, also when two are placed at once', async () => {
    const { deps } = setUp();
    const ada = await person();
    const inProgress = { statusCode: 409, code: 'call_in_progress', message: 'Please end the current call before starting a new one', field: undefined };

    await placeCall(deps, ada.session, { from: ada.number, to: DEFAULT_SOUND_TEST_NUMBER });
    expect(await refusal(placeCall(deps, ada.session, { from: ada.number, to: OUTSIDE }))).toEqual(inProgress);
    expect(await recordsOf(ada.session.id)).toHaveLength(1);

    const bob = await person();
    const both = await Promise.allSettled([0, 1].map(() => placeCall(deps, bob.session, { from: bob.number, to: DEFAULT_SOUND_TEST_NUMBER })));
    expect(both.filter((placing) => placing.status === 'fulfilled')).toHaveLength(1);
    const [lost] = both.filter((placing) => placing.status === 'rejected');
    expect(await refusal(Promise.reject(lost!.reason))).toEqual(inProgress);
    expect(await recordsOf(bob.session.id)).toHaveLength(1);
  });

  it('a metered call once the plan’s minutes are used up; a call to a Voxline user still goes through', async () => {
    const { deps, listeningTab } = setUp();
    const ada = await person();
    const bob = await person();
    await listeningTab(bob.session.id);
    const endedAt = new Date();
    // Within this month even in its first minutes: minutes count by the month a call started in.
    const usedUp = new Date(Math.max(endedAt.getTime() - 600_000, Date.UTC(endedAt.getUTCFullYear(), endedAt.getUTCMonth(), 1)));
    await database.db.insert(calls).values({
      conversationId: randomUUID(),
      userId: ada.session.id,
      direction: 'outbound',
      fromNumber: ada.number,
      toNumber: OUTSIDE,
      state: 'ended',
      outcome: 'completed',
      metered: true,
      startedAt: usedUp,
      answeredAt: usedUp,
      endedAt,
      durationSec: 600,
    });

    expect(await refusal(placeCall(deps, ada.session, { from: ada.number, to: OUTSIDE }))).toEqual({
      statusCode: 403,
      code: 'minutes_used_up',
      message: 'Monthly minutes used up',
      field: undefined,
    });
    expect(await recordsOf(ada.session.id)).toHaveLength(1);

    const placed = await placeCall(deps, ada.session, { from: ada.number, to: bob.number });
    expect(placed.call).toMatchObject({ state: 'ringing' });
  });
});
