import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../tests/support/test-database';
import type { Tier } from '../../common/plans';
import type { ServerMessage } from '../../common/realtime';
import { user } from '../auth/schema';
import type { InboundCall } from '../calls/live-calls';
import type { DatabaseHandle } from '../db/client';
import { subscriptions } from '../plans/schema';
import { announceCallEnded } from './announce-call-changes';
import { announceChange } from './announce-change';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const log = { warn: () => undefined };

function recordingHub() {
  const sent: { userId: string; message: ServerMessage }[] = [];
  return { sent, send: (userId: string, message: ServerMessage) => void sent.push({ userId, message }) };
}

/** A user on `tier`, paid until `expiresAt` (a month from now unless said). */
async function userOn(tier: Tier, expiresAt = new Date(Date.now() + 30 * 86_400_000)) {
  const id = randomUUID();
  await database.db.insert(user).values({ id, name: `On ${tier}`, email: `${id}@example.com` });
  if (tier !== 'free') await database.db.insert(subscriptions).values({ userId: id, tier, expiresAt });
  return id;
}

const inbound = (userId: string) => ({ userId }) as InboundCall;

describe('announceChange', () => {
  it('tells a Platinum user’s tabs, and nobody on Free, Premium or a Platinum plan that has run out', async () => {
    const hub = recordingHub();
    const platinum = await userOn('platinum');
    for (const userId of [await userOn('free'), await userOn('premium'), await userOn('platinum', new Date(Date.now() - 86_400_000)), platinum]) {
      await announceChange({ hub, db: database.db, log }, userId, ['contacts', 'voice']);
    }
    expect(hub.sent).toEqual([{ userId: platinum, message: { type: 'sync', topics: ['contacts', 'voice'] } }]);
  });

  it('sends nothing and logs why when the plan cannot be read, never failing the change', async () => {
    const hub = recordingHub();
    const warnings: string[] = [];
    const failing = { select: () => ({ from: () => ({ where: () => Promise.reject(new Error('database down')) }) }) } as unknown as typeof database.db;
    await expect(announceChange({ hub, db: failing, log: { warn: (_obj, msg) => void warnings.push(msg) } }, 'anyone', ['history'])).resolves.toBeUndefined();
    expect(hub.sent).toEqual([]);
    expect(warnings).toEqual(['could not read the plan, so the other tabs were not told of a change']);
  });
});

describe('announceCallEnded', () => {
  it('reloads the history of the caller and of the Voxline user the call rang', async () => {
    const hub = recordingHub();
    const [caller, callee] = [await userOn('platinum'), await userOn('platinum')];
    await announceCallEnded({ hub, db: database.db, log }, { userId: caller, inbound: inbound(callee) });
    expect(hub.sent).toEqual([
      { userId: caller, message: { type: 'sync', topics: ['history'] } },
      { userId: callee, message: { type: 'sync', topics: ['history'] } },
    ]);
  });

  it('tells only the callee of a call from outside Voxline, and a user who called themselves once', async () => {
    const callee = await userOn('platinum');
    const fromOutside = recordingHub();
    await announceCallEnded({ hub: fromOutside, db: database.db, log }, { userId: null, inbound: inbound(callee) });
    expect(fromOutside.sent.map((one) => one.userId)).toEqual([callee]);
    const toThemselves = recordingHub();
    await announceCallEnded({ hub: toThemselves, db: database.db, log }, { userId: callee, inbound: inbound(callee) });
    expect(toThemselves.sent.map((one) => one.userId)).toEqual([callee]);
  });
});
