import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { session, user } from '../auth/schema';
import { LocalBus } from '../bus/local-bus';
import type { DatabaseHandle } from '../db/client';
import { SessionSockets, SIGNED_OUT_CLOSE } from './session-sockets';

/** Just enough of a ws socket: how it was closed, and its close event. */
class FakeSocket extends EventEmitter {
  closedWith: { code: number; reason: string } | null = null;
  close(code: number, reason: string) {
    this.closedWith ??= { code, reason };
  }
  /** The peer finished the closing handshake. */
  gone() {
    this.emit('close');
  }
}

const log = { warn: () => {} };
const HOUR = 3_600_000;

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const opened: SessionSockets[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sockets) => sockets.close()));
});

async function start(bus = new LocalBus(), sweepMs?: number) {
  const sockets = new SessionSockets({ db: database.db, bus, instanceId: randomUUID(), log, ...(sweepMs ? { sweepMs } : {}) });
  await sockets.start();
  opened.push(sockets);
  return sockets;
}

async function newUser() {
  const id = randomUUID();
  await database.db.insert(user).values({ id, name: 'Ada', email: `${id}@example.com` });
  return id;
}

async function newSession(userId: string, expiresInMs = HOUR) {
  const id = randomUUID();
  await database.db.insert(session).values({ id, userId, token: randomUUID(), expiresAt: new Date(Date.now() + expiresInMs) });
  return id;
}

function track(registry: SessionSockets, userId: string, sessionId: string, onRevoked?: () => void) {
  const socket = new FakeSocket();
  registry.track(socket as unknown as WebSocket, userId, sessionId, onRevoked);
  return socket;
}

const endSession = (id: string) => database.db.delete(session).where(eq(session.id, id));

describe('SessionSockets', () => {
  it('closes the sockets of ended sessions only, then runs what a revoked socket asked for', async () => {
    const registry = await start();
    const ada = await newUser();
    const [ended, kept] = [await newSession(ada), await newSession(ada)];
    let callEnded = false;
    const media = track(registry, ada, ended, () => (callEnded = true));
    const tab = track(registry, ada, kept);

    await endSession(ended);
    await registry.revoked(ada);

    expect(media.closedWith).toEqual(SIGNED_OUT_CLOSE);
    expect(callEnded).toBe(true);
    expect(tab.closedWith).toBeNull();
  });

  it('keeps the sockets of a session that goes on under a new id (a password change)', async () => {
    const registry = await start();
    const ada = await newUser();
    const [before, other] = [await newSession(ada), await newSession(ada)];
    const changer = track(registry, ada, before);
    const elsewhere = track(registry, ada, other);

    await database.db.delete(session).where(eq(session.userId, ada));
    const after = await newSession(ada);
    await registry.revoked(ada, { from: before, to: after });
    expect(changer.closedWith).toBeNull();
    expect(elsewhere.closedWith).toEqual(SIGNED_OUT_CLOSE);

    // Renamed, the socket now belongs to the new session, and ends with it.
    await endSession(after);
    await registry.revoked(ada);
    expect(changer.closedWith).toEqual(SIGNED_OUT_CLOSE);
  });

  it("closes the sockets another instance holds when it hears of the revocation on the bus", async () => {
    const bus = new LocalBus();
    const [here, there] = [await start(bus), await start(bus)];
    const ada = await newUser();
    const ended = await newSession(ada);
    const remote = track(there, ada, ended);

    await endSession(ended);
    await here.revoked(ada);
    await until(() => remote.closedWith !== null);
    expect(remote.closedWith).toEqual(SIGNED_OUT_CLOSE);
  });

  it('finds, at its next sweep, sessions that ended without a word: expired, or revoked while the bus was away', async () => {
    const registry = await start(new LocalBus(), 50);
    const ada = await newUser();
    const [expiring, silentlyEnded, live] = [await newSession(ada, 300), await newSession(ada), await newSession(ada)];
    const [expired, dropped, open] = [track(registry, ada, expiring), track(registry, ada, silentlyEnded), track(registry, ada, live)];

    await endSession(silentlyEnded);
    await until(() => expired.closedWith !== null && dropped.closedWith !== null);
    expect(open.closedWith).toBeNull();
  });

  it('forgets a socket once it has closed', async () => {
    const registry = await start();
    const ada = await newUser();
    const ended = await newSession(ada);
    let revoked = 0;
    const socket = track(registry, ada, ended, () => (revoked += 1));
    socket.gone();

    await endSession(ended);
    await registry.revoked(ada);
    expect(socket.closedWith).toBeNull();
    expect(revoked).toBe(0);
  });
});
