import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../tests/support/test-database';
import { user } from '../auth/schema';
import type { DatabaseHandle } from '../db/client';
import { adoptUnfinishedRecordings } from './recording-adoption';
import { recordingKey } from './recording-rows';
import { recordings } from './schema';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function recordingOn(instanceId: string | null) {
  const userId = randomUUID();
  await database.db.insert(user).values({ id: userId, name: 'Ada', email: `${userId}@example.com`, emailVerified: true });
  const id = randomUUID();
  const startedAt = new Date('2026-11-22T10:00:00.000Z');
  await database.db.insert(recordings).values({ id, userId, objectKey: recordingKey(userId, id), state: 'recording', instanceId, startedAt, retainUntil: new Date('2027-02-20T10:00:00.000Z') });
  return { id, key: recordingKey(userId, id) };
}

const rowOf = async (id: string) => (await database.db.select().from(recordings).where(eq(recordings.id, id)))[0]!;
const log = { warn: () => {} };

describe('adoptUnfinishedRecordings', () => {
  it('finishes what stopped instances left, with the length read from the file, and leaves running instances’ recordings alone', async () => {
    const dead = await recordingOn('dead-instance');
    const alive = await recordingOn('alive-instance');
    const elsewhere = await recordingOn('other-dead-instance');
    const adopted: string[] = [];
    const count = await adoptUnfinishedRecordings(
      {
        db: database.db,
        adopt: async (key) => {
          adopted.push(key);
          return key === elsewhere.key ? null : { state: 'saved', durationMs: 4_980, bytes: 20_000 };
        },
        log,
      },
      new Set(['alive-instance']),
    );

    expect(count).toBe(1);
    expect(adopted).not.toContain(alive.key);
    expect(await rowOf(dead.id)).toMatchObject({ state: 'saved', durationMs: 4_980, bytes: 20_000, instanceId: null, endedAt: new Date('2026-11-22T10:00:04.980Z') });
    expect(await rowOf(alive.id)).toMatchObject({ state: 'recording', instanceId: 'alive-instance' });
    // Not in this instance's spool: another machine's disk may still hold it.
    expect(await rowOf(elsewhere.id)).toMatchObject({ state: 'recording' });
  });
});
