import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDEBAND_RATE } from '../../common/calls';
import { callCore } from '../../../tests/support/call-core';
import { joinTab } from '../../../tests/support/fake-realtime-socket';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { user } from '../auth/schema';
import type { DatabaseHandle } from '../db/client';
import { BaseLeg } from '../media/leg';
import { calls } from './schema';
import { defaultCallTiming } from './timing';

/** The far side of a call from outside Voxline. */
class OutsideCaller extends BaseLeg {
  readonly kind = 'simulated';
  readonly sampleRate = WIDEBAND_RATE;
  send() {}
  protected release() {}
}

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** The ringing of one instance, with the real hub, records and live calls, and a callee in the database. */
async function setUp() {
  const { hub, live, ringing } = callCore(database.db, { timing: { ...defaultCallTiming, ringTimeoutMs: 300 } });
  hub.on('call.answer', (caller, message, tabId) => ringing.answer(caller.id, message.callId, tabId));
  const callee = randomUUID();
  await database.db.insert(user).values({ id: callee, name: 'Callee', email: `${callee}@example.com` });
  const tab = async (listening: boolean) => {
    const socket = joinTab(hub, callee);
    if (listening) await socket.startListening();
    return socket;
  };
  const record = async (id: string) => (await database.db.select().from(calls).where(eq(calls.id, id)))[0];
  const records = () => database.db.select().from(calls).where(eq(calls.userId, callee));
  return { live, ringing, callee, tab, record, records };
}

describe('UserRinging', () => {
  it('rings every listening tab; the first to answer takes the call, the other stops ringing', async () => {
    const { ringing, callee, tab, record } = await setUp();
    const laptop = await tab(true);
    const phone = await tab(true);

    const { result } = await ringing.ringFromOutside(callee, '+12125550123', '+14155550123', new OutsideCaller());
    expect(result).toBe('ringing');
    const [incoming] = laptop.of('call.incoming');
    expect(phone.of('call.incoming')[0]?.callId).toBe(incoming!.callId);

    laptop.say({ type: 'call.answer', callId: incoming!.callId });
    phone.say({ type: 'call.answer', callId: incoming!.callId });
    await until(() => laptop.of('call.state').length > 0 && phone.of('error').length > 0);
    expect(laptop.of('call.state')[0]).toMatchObject({ callId: incoming!.callId, state: 'answered' });
    expect(phone.of('call.ended')[0]).toMatchObject({ callId: incoming!.callId, reason: 'Answered in another tab' });
    expect(phone.of('error')[0]).toMatchObject({ callId: incoming!.callId, message: 'This call was answered in another tab' });
    expect(await record(incoming!.callId)).toMatchObject({ direction: 'inbound', state: 'answered' });
  });

  it('keeps a call the callee cannot take as missed: not listening, or never answered', async () => {
    const { ringing, callee, tab, records } = await setUp();
    await tab(false);
    expect((await ringing.ringFromOutside(callee, '+12125550124', '+14155550124', new OutsideCaller())).result).toBe('unavailable');

    const listening = await tab(true);
    expect((await ringing.ringFromOutside(callee, '+12125550125', '+14155550124', new OutsideCaller())).result).toBe('ringing');
    await until(() => listening.of('call.ended').length > 0);
    expect(listening.of('call.ended')[0]).toMatchObject({ outcome: 'no-answer', reason: 'Nobody answered' });

    const history = await records();
    expect(history.map(({ fromNumber, state, outcome, reason }) => ({ fromNumber, state, outcome, reason }))).toEqual(
      expect.arrayContaining([
        { fromNumber: '+12125550124', state: 'ended', outcome: 'unavailable', reason: 'You were not taking calls' },
        { fromNumber: '+12125550125', state: 'ended', outcome: 'no-answer', reason: 'Nobody answered' },
      ]),
    );
  });

  it('tells the callee the caller hung up when the caller leaves while it rings', async () => {
    const { ringing, live, callee, tab, record } = await setUp();
    const listening = await tab(true);
    const caller = new OutsideCaller();
    const { callId } = await ringing.ringFromOutside(callee, '+12125550126', '+14155550126', caller);
    const [incoming] = listening.of('call.incoming');
    caller.close('gone');
    await until(() => listening.of('call.ended').length > 0);
    expect(listening.of('call.ended')[0]).toMatchObject({ callId: incoming!.callId, outcome: 'cancelled', reason: 'The caller hung up' });
    expect(await record(incoming!.callId)).toMatchObject({ state: 'ended', outcome: 'cancelled' });
    expect(live.get(callId)).toBeUndefined();
    expect(live.hasCallOf(callee)).toBe(false);
  });

  it('rings a tab that begins to listen while the call rings (one that moved from a draining instance), and it can answer', async () => {
    const { ringing, callee, tab, record } = await setUp();
    const leaving = await tab(true);
    const { result } = await ringing.ringFromOutside(callee, '+12125550127', '+14155550127', new OutsideCaller());
    expect(result).toBe('ringing');
    const [incoming] = leaving.of('call.incoming');

    const arrived = await tab(true);
    await until(() => arrived.of('call.incoming').length > 0);
    expect(arrived.of('call.incoming')).toEqual([incoming]);
    arrived.say({ type: 'call.answer', callId: incoming!.callId });
    await until(() => arrived.of('call.state').length > 0);
    expect(arrived.of('call.state')[0]).toMatchObject({ callId: incoming!.callId, state: 'answered' });
    expect(await record(incoming!.callId)).toMatchObject({ state: 'answered' });
    expect(leaving.of('call.incoming'), 'rung once').toHaveLength(1);
  });
});
