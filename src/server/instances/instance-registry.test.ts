import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { until } from '../../../tests/support/until';
import { calls } from '../calls/schema';
import { InstanceRegistry } from './instance-registry';
import { serverInstances } from './schema';

let testApp: TestApp;
beforeAll(async () => {
  // The app's own registry sweeps only as it starts: these tests sweep with registries of their own,
  // and one from the app in between would close their calls first.
  testApp = await buildTestApp({ instanceTiming: { sweepMs: 3_600_000 } });
  // The app's own registry (the only instance, on the embedded database) clears the list when ready.
  await testApp.app.ready();
});
afterAll(() => testApp.close());

const timing = { heartbeatMs: 1_000, deadAfterMs: 40_000, sweepMs: 1_000 };
const silent = { warn: () => {} };

async function openCallOn(instanceId: string | null) {
  const user = await newSignedInUser(testApp.app);
  const number = await rentANumber(user.browser);
  const [row] = await testApp.database.db
    .insert(calls)
    .values({ conversationId: randomUUID(), userId: user.userId, direction: 'outbound', fromNumber: number, toNumber: '+442079460958', state: 'answered', answeredAt: new Date(), metered: true, instanceId })
    .returning();
  return { ...user, callId: row!.id };
}

const stateOf = async (id: string) => (await testApp.database.db.select().from(calls).where(eq(calls.id, id)))[0]!;

describe('InstanceRegistry', () => {
  it('closes the open calls of an instance that stopped beating, and only those', async () => {
    const db = testApp.database.db;
    const dead = randomUUID();
    const alive = randomUUID();
    await db.insert(serverInstances).values([
      { id: dead, heartbeatAt: new Date(Date.now() - 60_000) },
      { id: alive, heartbeatAt: new Date() },
    ]);
    const onDead = await openCallOn(dead);
    const onAlive = await openCallOn(alive);
    const unowned = await openCallOn(null);
    const registry = new InstanceRegistry(db, timing, silent);
    const mine = await openCallOn(registry.id);
    const reported: { running: string[]; closed: string[] }[] = [];
    registry.onSweep((running, closed) => reported.push({ running: [...running], closed: closed.map((row) => row.id) }));

    expect(await registry.sweep()).toBe(2);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.closed.sort()).toEqual([onDead.callId, unowned.callId].sort());
    expect(reported[0]!.running).toEqual(expect.arrayContaining([registry.id, alive]));
    expect(reported[0]!.running).not.toContain(dead);
    expect(await stateOf(onDead.callId)).toMatchObject({ state: 'ended', outcome: 'failed', reason: 'The call was cut off when its server stopped' });
    expect(await stateOf(unowned.callId)).toMatchObject({ state: 'ended', outcome: 'failed' });
    expect((await stateOf(onAlive.callId)).state).toBe('answered');
    expect((await stateOf(mine.callId)).state).toBe('answered');
    // The user's "one active call" slot is free again: they can call.
    const again = await onDead.browser.post('/api/v1/calls', { from: (await stateOf(onDead.callId)).fromNumber, to: '+14155550100' });
    expect(again.statusCode).toBe(201);
    await onDead.browser.post(`/api/v1/calls/${again.json().call.id}/hangup`);
    // The dead instance is forgotten; the live one stays.
    const instances = (await db.select().from(serverInstances)).map((row) => row.id);
    expect(instances).not.toContain(dead);
    expect(instances).toContain(alive);
  });

  it('tells of a dead instance’s call as ended, with its reason, when two survivors sweep at once', async () => {
    const db = testApp.database.db;
    const dead = randomUUID();
    await db.insert(serverInstances).values({ id: dead, heartbeatAt: new Date(Date.now() - 60_000) });
    const onDead = await openCallOn(dead);
    const survivors = [new InstanceRegistry(db, timing, silent), new InstanceRegistry(db, timing, silent)];
    const told: (typeof calls.$inferSelect)[] = [];
    for (const survivor of survivors) survivor.onSweep((_running, closed) => told.push(...closed.filter((row) => row.id === onDead.callId)));

    await Promise.all(survivors.map((survivor) => survivor.sweep()));

    expect(told.length).toBeGreaterThan(0);
    for (const row of told) expect(row).toMatchObject({ state: 'ended', outcome: 'failed', reason: 'The call was cut off when its server stopped' });
  });

  it('joins the list when started, beats, and leaves it when stopped', async () => {
    const db = testApp.database.db;
    const registry = new InstanceRegistry(db, timing, silent);
    await registry.start();
    const [joined] = await db.select().from(serverInstances).where(eq(serverInstances.id, registry.id));
    expect(joined).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const [beaten] = await db.select().from(serverInstances).where(eq(serverInstances.id, registry.id));
    expect(beaten!.heartbeatAt.getTime()).toBeGreaterThan(joined!.heartbeatAt.getTime());
    await registry.stop();
    expect(await db.select().from(serverInstances).where(eq(serverInstances.id, registry.id))).toEqual([]);
  });

  it('marks itself draining, and a beat that finds its row gone brings it back draining', async () => {
    const db = testApp.database.db;
    const registry = new InstanceRegistry(db, { ...timing, heartbeatMs: 50 }, silent);
    await registry.start();
    const row = async () => (await db.select().from(serverInstances).where(eq(serverInstances.id, registry.id)))[0];
    expect((await row())!.drainingSince).toBeNull();
    const since = new Date('2026-11-22T10:00:00.000Z');
    await registry.markDraining(since);
    expect((await row())!.drainingSince).toEqual(since);

    // A database that was briefly away may have lost the row.
    await db.delete(serverInstances).where(eq(serverInstances.id, registry.id));
    await until(async () => (await row()) !== undefined);
    expect((await row())!.drainingSince).toEqual(since);
    await registry.stop();
  });

  it('as the only instance (embedded database), closes every earlier run’s calls at once', async () => {
    const db = testApp.database.db;
    const earlier = randomUUID();
    await db.insert(serverInstances).values({ id: earlier, heartbeatAt: new Date() });
    const left = await openCallOn(earlier);
    const registry = new InstanceRegistry(db, timing, silent, true);
    await registry.start();
    expect(await stateOf(left.callId)).toMatchObject({ state: 'ended', outcome: 'failed' });
    await registry.stop();
  });
});

describe('an app among instances', () => {
  let fast: TestApp;
  let wsBase: string;
  beforeAll(async () => {
    fast = await buildTestApp({ instanceTiming: { heartbeatMs: 100, deadAfterMs: 1_000, sweepMs: 100 } });
    wsBase = (await fast.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  afterAll(() => fast.close());

  it('tells the user on their tabs when it closes a call that a killed instance left open', async () => {
    const user = await newSignedInUser(fast.app);
    const number = await rentANumber(user.browser);
    const tab = await RealtimeTab.open(wsBase, user.browser);
    const killed = randomUUID();
    await fast.database.db.insert(serverInstances).values({ id: killed, heartbeatAt: new Date(Date.now() - 5_000) });
    const [row] = await fast.database.db
      .insert(calls)
      .values({ conversationId: randomUUID(), userId: user.userId, direction: 'outbound', fromNumber: number, toNumber: '+442079460958', state: 'answered', answeredAt: new Date(), metered: true, instanceId: killed })
      .returning();
    expect(await tab.next('call.ended')).toMatchObject({ callId: row!.id, outcome: 'failed', reason: 'The call was cut off when its server stopped' });
    tab.socket.close();
  });
});
