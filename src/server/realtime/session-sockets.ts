import { and, eq, gt, inArray } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import { session } from '../auth/schema';
import type { Bus, Unsubscribe } from '../bus/bus';
import type { Database } from '../db/client';

/**
 * How a socket whose session was revoked is closed: the web client stops reconnecting on this code
 * and shows the person signed out (src/web/lib/realtime.tsx, src/web/calls/socket-media.ts).
 */
export const SIGNED_OUT_CLOSE = { code: 4401, reason: 'Signed out' } as const;

/** Sessions that end without a word on the bus (expired, or revoked while Redis was away) are found this often. */
const DEFAULT_SESSION_SWEEP_MS = 60_000;

const CHANNEL = 'sessions:revoked';

/** Some of a user's sessions ended, as the news travels on the bus to the other instances. */
interface Revocation {
  /** The instance that announced it, which has already acted on it. */
  origin: string;
  userId: string;
  replaced?: ReplacedSession;
}

/** A session that goes on under a new id (a password change signs the changer in again). */
export interface ReplacedSession {
  from: string;
  to: string;
}

interface Tracked {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  onRevoked?: () => void;
}

export interface SessionSocketsOptions {
  db: Database;
  /** Carries revocations to the other instances, which hold the user's other tabs. */
  bus: Bus;
  instanceId: string;
  log: { warn(obj: object, msg: string): void };
  sweepMs?: number;
}

/**
 * The websockets (signalling and call media) of this instance, each with the session it was opened
 * with: a websocket is authenticated once, at its upgrade, so when sessions end (sign-out, password
 * change or reset) the sockets of those that no longer exist are closed, on every instance.
 */
export class SessionSockets {
  private readonly byUser = new Map<string, Set<Tracked>>();
  private readonly sweeper: NodeJS.Timeout;
  private unsubscribe: Unsubscribe | null = null;
  private readonly db: Database;
  private readonly bus: Bus;
  private readonly instanceId: string;
  private readonly log: SessionSocketsOptions['log'];

  constructor({ db, bus, instanceId, log, sweepMs = DEFAULT_SESSION_SWEEP_MS }: SessionSocketsOptions) {
    this.db = db;
    this.bus = bus;
    this.instanceId = instanceId;
    this.log = log;
    this.sweeper = setInterval(() => void this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  /** Hears the revocations other instances announce. */
  async start() {
    this.unsubscribe = await this.bus.subscribe(CHANNEL, (payload) => {
      const { origin, userId, replaced } = JSON.parse(payload.toString()) as Revocation;
      if (origin !== this.instanceId) void this.closeRevoked(userId, replaced);
    });
  }

  /**
   * Remembers an open socket's session until the socket closes. When the session is revoked the
   * socket is closed with SIGNED_OUT_CLOSE, then `onRevoked` runs (a media socket's call ends).
   */
  track(socket: WebSocket, userId: string, sessionId: string, onRevoked?: () => void) {
    const tracked: Tracked = { socket, userId, sessionId, ...(onRevoked ? { onRevoked } : {}) };
    let sockets = this.byUser.get(userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(userId, sockets);
    }
    sockets.add(tracked);
    socket.once('close', () => this.forget(tracked));
  }

  /**
   * Some of the user's sessions have just been deleted: closes the sockets of every session of theirs
   * that no longer exists, here at once and on the other instances through the bus. `replaced`
   * names a session that lives on under a new id, whose sockets stay open.
   */
  async revoked(userId: string, replaced?: ReplacedSession) {
    const revocation: Revocation = { origin: this.instanceId, userId, ...(replaced ? { replaced } : {}) };
    await Promise.all([
      this.closeRevoked(userId, replaced),
      this.bus.publish(CHANNEL, JSON.stringify(revocation)).catch((error: unknown) => {
        // The sweep closes them later: the session is gone, which is what the person asked for.
        this.log.warn({ err: error, userId }, 'could not tell the other servers to close the sockets of ended sessions');
      }),
    ]);
  }

  /**
   * A password change with its other sessions revoked: better-auth deleted every session of the
   * user and signed the changer in again under `newToken`, so the sockets of the changer's own
   * session (`sessionId`) stay open and all others close.
   */
  async passwordChanged(userId: string, sessionId: string | undefined, newToken: string | null) {
    let replaced: ReplacedSession | undefined;
    try {
      const [renewed] = newToken ? await this.db.select({ id: session.id }).from(session).where(eq(session.token, newToken)) : [];
      if (sessionId && renewed) replaced = { from: sessionId, to: renewed.id };
    } catch (error) {
      this.log.warn({ err: error, userId }, 'could not find the session a password change signed in');
    }
    await this.revoked(userId, replaced);
  }

  async close() {
    clearInterval(this.sweeper);
    await this.unsubscribe?.();
    this.byUser.clear();
  }

  private async closeRevoked(userId: string, replaced?: ReplacedSession) {
    const sockets = this.byUser.get(userId);
    if (!sockets) return;
    if (replaced) for (const tracked of sockets) if (tracked.sessionId === replaced.from) tracked.sessionId = replaced.to;
    try {
      const rows = await this.db
        .select({ id: session.id })
        .from(session)
        .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())));
      this.closeAllBut(this.byUser.get(userId) ?? [], new Set(rows.map((row) => row.id)));
    } catch (error) {
      this.log.warn({ err: error, userId }, 'could not close the sockets of ended sessions');
    }
  }

  /** Closes the sockets whose sessions have ended without a revocation heard: expired, or announced while the bus was away. */
  private async sweep() {
    const ids = new Set<string>();
    for (const sockets of this.byUser.values()) for (const tracked of sockets) ids.add(tracked.sessionId);
    if (ids.size === 0) return;
    try {
      const rows = await this.db
        .select({ id: session.id })
        .from(session)
        .where(and(inArray(session.id, [...ids]), gt(session.expiresAt, new Date())));
      const live = new Set(rows.map((row) => row.id));
      for (const sockets of [...this.byUser.values()]) this.closeAllBut(sockets, live);
    } catch (error) {
      this.log.warn({ err: error }, 'could not check the sessions of open sockets');
    }
  }

  private closeAllBut(sockets: Iterable<Tracked>, live: ReadonlySet<string>) {
    for (const tracked of [...sockets]) {
      if (live.has(tracked.sessionId)) continue;
      this.forget(tracked);
      tracked.socket.close(SIGNED_OUT_CLOSE.code, SIGNED_OUT_CLOSE.reason);
      tracked.onRevoked?.();
    }
  }

  private forget(tracked: Tracked) {
    const sockets = this.byUser.get(tracked.userId);
    if (!sockets?.delete(tracked)) return;
    if (sockets.size === 0) this.byUser.delete(tracked.userId);
  }
}
