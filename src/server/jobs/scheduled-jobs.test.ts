import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retainUntil } from '../../common/plans';
import { buildTestApp } from '../../../tests/support/test-app';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { user } from '../auth/schema';
import { calls } from '../calls/schema';
import type { DatabaseHandle } from '../db/client';
import { voicemails } from '../voicemail/schema';
import { scheduleJobs } from './scheduled-jobs';
import { jobLeases } from './schema';

const DAY_MS = 86_400_000;

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('scheduleJobs', () => {
  it('runs the retention job once the app is ready, under its lease, and stops with the app', async () => {
    const { db } = database;
    const owner = crypto.randomUUID();
    await db.insert(user).values({ id: owner, name: 'Free user', email: `${owner}@example.com` });
    const call = { userId: owner, direction: 'outbound' as const, fromNumber: '+14155550123', toNumber: '+14155550124', state: 'ended' as const, metered: false };
    const [recent] = await db.insert(calls).values({ ...call, conversationId: crypto.randomUUID(), startedAt: new Date(Date.now() - 10 * DAY_MS) }).returning();
    await db.insert(calls).values({ ...call, conversationId: crypto.randomUUID(), startedAt: new Date(Date.now() - 100 * DAY_MS) });
    const madeAt = new Date(Date.now() - 31 * DAY_MS);
    await db.insert(voicemails).values({ userId: owner, fromNumber: '+14155550125', toNumber: '+14155550123', objectKey: `voicemail/${owner}/old.ogg`, state: 'saved', createdAt: madeAt, retainUntil: retainUntil('free', 'voicemail', madeAt) });
    const deleted: string[] = [];
    const store = { delete: async (key: string) => void deleted.push(key) };

    const app = Fastify({ logger: false });
    scheduleJobs(app, { db, instanceId: 'instance-a', config: { RETENTION_INTERVAL_MS: 3_600_000 }, store, firstRunDelayMs: 10 });
    try {
      await app.ready();
      await until(async () => (await db.select().from(jobLeases).where(eq(jobLeases.name, 'retention')))[0]?.lastRunAt != null, 20_000);
      expect((await db.select({ id: calls.id }).from(calls).where(eq(calls.userId, owner))).map((row) => row.id)).toEqual([recent!.id]);
      expect(deleted).toEqual([`voicemail/${owner}/old.ogg`]);
      expect(await db.select().from(voicemails).where(eq(voicemails.userId, owner))).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('runs in the assembled app, RETENTION_INTERVAL_MS after start when that is under a minute', async () => {
    const testApp = await buildTestApp({ env: { RETENTION_INTERVAL_MS: '1000' } });
    try {
      await testApp.app.ready();
      const { db } = testApp.database;
      await until(async () => (await db.select().from(jobLeases).where(eq(jobLeases.name, 'retention')))[0]?.lastRunAt != null, 30_000);
    } finally {
      await testApp.close();
    }
  }, 60_000);

  it('has no timer when RETENTION_INTERVAL_MS is 0', async () => {
    const app = Fastify({ logger: false });
    scheduleJobs(app, { db: database.db, instanceId: 'instance-b', config: { RETENTION_INTERVAL_MS: 0 }, store: { delete: async () => {} }, firstRunDelayMs: 0 });
    await app.ready();
    await app.close();
    expect(await database.db.select().from(jobLeases).where(eq(jobLeases.heldBy, 'instance-b'))).toEqual([]);
  });
});
