import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retainUntil, type Tier } from '../../common/plans';
import { openTestDatabase } from '../../../tests/support/test-database';
import { user } from '../auth/schema';
import { calls } from '../calls/schema';
import type { DatabaseHandle } from '../db/client';
import { subscriptions } from '../plans/schema';
import { recordings } from '../recordings/schema';
import { voicemails } from '../voicemail/schema';
import { applyRetention } from './retention';

const DAY_MS = 86_400_000;
/** The moment each run applies the rules at: the tests move it rather than wait. */
const NOW = new Date('2027-06-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

/** A store that keeps its objects' keys in memory and may be made to refuse. */
class KeptObjects {
  readonly keys = new Set<string>();
  refusing = false;
  async delete(key: string) {
    if (this.refusing) throw new Error('connect ECONNREFUSED 127.0.0.1:9000');
    this.keys.delete(key);
  }
}

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

let store: KeptObjects;
const warnings: { obj: object; msg: string }[] = [];
const log = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }) };
const run = (at: Date, batchSize?: number) => applyRetention({ db: database.db, files: store, log, now: at, batchSize });

/** A user on `tier` at NOW (a paid one for ten more days). */
async function userOn(tier: Tier) {
  const id = crypto.randomUUID();
  await database.db.insert(user).values({ id, name: 'Retention user', email: `${id}@example.com` });
  if (tier !== 'free') await database.db.insert(subscriptions).values({ userId: id, tier, expiresAt: new Date(NOW.getTime() + 10 * DAY_MS) });
  return id;
}

async function recordingOf(userId: string, madeAt: Date, tier: Tier) {
  const objectKey = `recordings/${userId}/${crypto.randomUUID()}.ogg`;
  store.keys.add(objectKey);
  const [row] = await database.db
    .insert(recordings)
    .values({ userId, objectKey, state: 'saved', startedAt: madeAt, endedAt: madeAt, retainUntil: retainUntil(tier, 'recordings', madeAt) })
    .returning();
  return row!;
}

async function voicemailFor(userId: string, madeAt: Date, tier: Tier) {
  const objectKey = `voicemail/${userId}/${crypto.randomUUID()}.ogg`;
  store.keys.add(objectKey);
  const [row] = await database.db
    .insert(voicemails)
    .values({ userId, fromNumber: '+14155550123', toNumber: '+14155550124', objectKey, state: 'saved', createdAt: madeAt, retainUntil: retainUntil(tier, 'voicemail', madeAt) })
    .returning();
  return row!;
}

async function callOf(userId: string, startedAt: Date, state: 'ended' | 'answered' = 'ended') {
  const [row] = await database.db
    .insert(calls)
    .values({ conversationId: crypto.randomUUID(), userId, direction: 'outbound', fromNumber: '+14155550123', toNumber: '+14155550124', state, startedAt, metered: false })
    .returning();
  return row!.id;
}

const recordingIds = async (userId: string) => (await database.db.select({ id: recordings.id }).from(recordings).where(eq(recordings.userId, userId))).map((row) => row.id);
const voicemailIds = async (userId: string) => (await database.db.select({ id: voicemails.id }).from(voicemails).where(eq(voicemails.userId, userId))).map((row) => row.id);
const callIds = async (userId: string) => (await database.db.select({ id: calls.id }).from(calls).where(eq(calls.userId, userId))).map((row) => row.id);

describe('applyRetention', () => {
  beforeAll(() => {
    store = new KeptObjects();
  });

  it('keeps a file until its retain_until and deletes it, object then row, from that moment', async () => {
    const premium = await userOn('premium');
    const madeAt = ago(10 * DAY_MS);
    const recording = await recordingOf(premium, madeAt, 'premium');
    const message = await voicemailFor(premium, madeAt, 'premium');

    // One second before its time: nothing moves.
    await run(new Date(recording.retainUntil.getTime() - 1000));
    expect(await recordingIds(premium)).toEqual([recording.id]);
    expect(await voicemailIds(premium)).toEqual([message.id]);
    expect(store.keys).toContain(recording.objectKey);

    const report = await run(recording.retainUntil);
    expect(report).toMatchObject({ recordings: 1, voicemails: 1, filesLeft: 0 });
    expect(await recordingIds(premium)).toEqual([]);
    expect(await voicemailIds(premium)).toEqual([]);
    expect(store.keys).not.toContain(recording.objectKey);
    expect(store.keys).not.toContain(message.objectKey);
  }, 60_000);

  it('keeps Free voicemail 30 days, Premium 90, Platinum 365, each a second short of it', async () => {
    const cases: [Tier, number][] = [['free', 30], ['premium', 90], ['platinum', 365]];
    for (const [tier, days] of cases) {
      const owner = await userOn(tier);
      const young = await voicemailFor(owner, ago(days * DAY_MS - 1000), tier);
      const due = await voicemailFor(owner, ago(days * DAY_MS), tier);
      await run(NOW);
      expect(await voicemailIds(owner), tier).toEqual([young.id]);
      expect(store.keys, tier).not.toContain(due.objectKey);
    }
  });

  it('keeps a recording made under Platinum for its year after the user moves down to Free', async () => {
    const owner = await userOn('platinum');
    const underPlatinum = await recordingOf(owner, ago(200 * DAY_MS), 'platinum');
    // The plan ran out: the user is on Free now, whose recordings would be kept 0 days.
    await database.db.update(subscriptions).set({ expiresAt: ago(DAY_MS) }).where(eq(subscriptions.userId, owner));
    await run(NOW);
    expect(await recordingIds(owner)).toEqual([underPlatinum.id]);
    await run(new Date(underPlatinum.retainUntil.getTime() - 1000));
    expect(await recordingIds(owner)).toEqual([underPlatinum.id]);
    await run(underPlatinum.retainUntil);
    expect(await recordingIds(owner)).toEqual([]);
  });

  it('deletes ended calls past the history days of the plan in force now: Free 90 days, Platinum 365', async () => {
    const free = await userOn('free');
    const freeOld = await callOf(free, ago(91 * DAY_MS));
    const freeRecent = await callOf(free, ago(89 * DAY_MS));
    const freeAtLimit = await callOf(free, ago(90 * DAY_MS - 1000));
    const platinum = await userOn('platinum');
    const platinumKept = await callOf(platinum, ago(200 * DAY_MS));
    const platinumOld = await callOf(platinum, ago(366 * DAY_MS));
    const lapsed = await userOn('platinum');
    await database.db.update(subscriptions).set({ expiresAt: ago(DAY_MS) }).where(eq(subscriptions.userId, lapsed));
    const lapsedOld = await callOf(lapsed, ago(200 * DAY_MS));
    // A record still open (its server died before closing it) is the call engine's, not retention's.
    const stillOpen = await callOf(lapsed, ago(100 * DAY_MS), 'answered');

    const report = await run(NOW);
    expect(report.calls).toBe(3);
    expect((await callIds(free)).sort()).toEqual([freeRecent, freeAtLimit].sort());
    expect(await callIds(platinum)).toEqual([platinumKept]);
    expect(await callIds(lapsed)).toEqual([stillOpen]);
    expect([freeOld, platinumOld, lapsedOld]).not.toContain(stillOpen);
  });

  it('goes through more rows than one batch holds', async () => {
    const owners = await Promise.all([userOn('free'), userOn('free'), userOn('free')]);
    for (const owner of owners) {
      await callOf(owner, ago(100 * DAY_MS));
      await voicemailFor(owner, ago(40 * DAY_MS), 'free');
    }
    const report = await run(NOW, 2);
    expect(report).toMatchObject({ voicemails: 3, calls: 3 });
    for (const owner of owners) {
      expect(await callIds(owner)).toEqual([]);
      expect(await voicemailIds(owner)).toEqual([]);
    }
  });

  it('leaves the row of a file the store would not delete for the next run, and logs it', async () => {
    const owner = await userOn('free');
    const message = await voicemailFor(owner, ago(31 * DAY_MS), 'free');
    store.refusing = true;
    warnings.length = 0;
    try {
      const report = await run(NOW);
      expect(report).toMatchObject({ voicemails: 0, filesLeft: 1 });
    } finally {
      store.refusing = false;
    }
    expect(await voicemailIds(owner)).toEqual([message.id]);
    expect(warnings).toEqual([{ obj: expect.objectContaining({ kind: 'voicemail', id: message.id }), msg: 'retention: the store did not delete the file; its row stays for the next run' }]);

    expect(await run(NOW)).toMatchObject({ voicemails: 1, filesLeft: 0 });
    expect(await voicemailIds(owner)).toEqual([]);
    expect(store.keys).not.toContain(message.objectKey);
  });

  it('leaves a file being written, or waiting in a spool for the store, to the instance that holds it', async () => {
    const owner = await userOn('premium');
    const writing = await recordingOf(owner, ago(100 * DAY_MS), 'premium');
    const waiting = await voicemailFor(owner, ago(100 * DAY_MS), 'premium');
    await database.db.update(recordings).set({ state: 'recording' }).where(eq(recordings.id, writing.id));
    await database.db.update(voicemails).set({ state: 'pending_upload' }).where(eq(voicemails.id, waiting.id));
    await run(NOW);
    expect(await recordingIds(owner)).toEqual([writing.id]);
    expect(await voicemailIds(owner)).toEqual([waiting.id]);

    await database.db.update(recordings).set({ state: 'saved' }).where(eq(recordings.id, writing.id));
    await database.db.update(voicemails).set({ state: 'saved' }).where(eq(voicemails.id, waiting.id));
    await run(NOW);
    expect(await recordingIds(owner)).toEqual([]);
    expect(await voicemailIds(owner)).toEqual([]);
  });

  it('stops between batches once the app closes', async () => {
    const owner = await userOn('free');
    await voicemailFor(owner, ago(31 * DAY_MS), 'free');
    const closed = new AbortController();
    closed.abort();
    expect(await applyRetention({ db: database.db, files: store, log, now: NOW, signal: closed.signal })).toEqual({ recordings: 0, voicemails: 0, calls: 0, filesLeft: 0 });
    expect(await voicemailIds(owner)).toHaveLength(1);
    await run(NOW);
    expect(await voicemailIds(owner)).toEqual([]);
  });
});
