import type { AddressInfo } from 'node:net';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { WebSocketServer } from 'ws';
import type { PaidPlan } from '../../src/common/plans';
import type { DatabaseHandle } from '../../src/server/db/client';
import { extendSubscription } from '../../src/server/plans/service';
import { saveVoiceSettings } from '../../src/server/voice/service';
import type { BenchUser, ServerReply, ServerRequest, ServerUsage } from './protocol';

type Handler = (request: ServerRequest) => Promise<ServerReply | null>;

const NS_PER_MS = 1e6;
/** The least plan with pitch and speed, and with recording (src/common/plans.ts). */
const VOICE_PLAN: PaidPlan = 'premium';
const LOOP_DELAY_RESOLUTION_MS = 10;

/**
 * The child's side of the IPC channel: answers usage and stop requests for every server under test,
 * and passes other requests to `handle`. The child exits when the bench goes away.
 */
function serveBench({ port, handle, stop }: { port: number; handle: Handler; stop: () => Promise<void> }) {
  const send = (reply: ServerReply) => process.send?.(reply);
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  let gcTotalMs = 0;
  let gcLongestMs = 0;
  let gcMajorCount = 0;
  const countPauses = (entries: PerformanceEntry[]) => {
    for (const entry of entries) {
      gcTotalMs += entry.duration;
      gcLongestMs = Math.max(gcLongestMs, entry.duration);
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcMajorCount += 1;
    }
  };
  const gcObserver = new PerformanceObserver((list) => countPauses(list.getEntries()));
  gcObserver.observe({ entryTypes: ['gc'] });

  // The histogram holds the intervals between its timer's runs: the delay is what exceeds the resolution.
  const delayAt = (nanoseconds: number) => Math.max(0, nanoseconds / NS_PER_MS - LOOP_DELAY_RESOLUTION_MS);

  const usage = (collectGarbage: boolean): ServerUsage => {
    if (collectGarbage) globalThis.gc?.();
    countPauses(gcObserver.takeRecords());
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const result: ServerUsage = {
      atMs: Number(process.hrtime.bigint()) / NS_PER_MS,
      cpuUserUs: cpu.user,
      cpuSystemUs: cpu.system,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      arrayBuffersBytes: memory.arrayBuffers,
      loopDelayP50Ms: delayAt(loopDelay.percentile(50)),
      loopDelayP99Ms: delayAt(loopDelay.percentile(99)),
      loopDelayMaxMs: delayAt(loopDelay.max),
      gcTotalMs,
      gcLongestMs,
      gcMajorCount,
    };
    loopDelay.reset();
    gcTotalMs = 0;
    gcLongestMs = 0;
    gcMajorCount = 0;
    return result;
  };

  process.on('message', (request: ServerRequest) => {
    void (async () => {
      try {
        if (request.type === 'usage') send({ id: request.id, type: 'usage', usage: usage(request.collectGarbage) });
        else if (request.type === 'stop') {
          loopDelay.disable();
          gcObserver.disconnect();
          await stop();
          send({ id: request.id, type: 'stopped' });
          // Leaves time for the reply to cross, then lets --cpu-prof write its profile.
          setTimeout(() => process.exit(0), 50);
        } else {
          const reply = await handle(request);
          if (reply) send(reply);
        }
      } catch (error) {
        send({ id: request.id, type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port });
}

/** Serves the bench for a bare `ws` server (a baseline) once it listens; stopping drops its clients. */
export function serveWebSocketServer(server: WebSocketServer) {
  server.on('listening', () => {
    serveBench({
      port: (server.address() as AddressInfo).port,
      handle: async () => null,
      stop: () =>
        new Promise<void>((resolve) => {
          for (const client of server.clients) client.terminate();
          server.close(() => resolve());
        }),
    });
  });
}

/**
 * Serves the bench for a listening Voxline app: creates users `batch` at a time with
 * `createUser(index)`, gives them the voice settings asked for, and closes the app, then its
 * database, when told to stop.
 */
export function serveVoxline({
  app,
  database,
  batch,
  createUser,
}: {
  app: FastifyInstance;
  database: DatabaseHandle;
  batch: number;
  createUser: (index: number) => Promise<BenchUser>;
}) {
  serveBench({
    port: (app.server.address() as AddressInfo).port,
    handle: async (request) => {
      if (request.type !== 'create-users') return null;
      const { voice, premium } = request;
      const users: BenchUser[] = [];
      for (let start = 0; start < request.count; start += batch) {
        const made = Array.from({ length: Math.min(batch, request.count - start) }, async (_, i) => {
          const user = await createUser(start + i);
          // As the app's tests do: the plan granted and the settings saved in the database, where a payment and the settings page would put them.
          if (voice || premium) await extendSubscription(database.db, user.id, VOICE_PLAN, new Date());
          if (voice) await saveVoiceSettings(database.db, user.id, voice);
          return user;
        });
        users.push(...(await Promise.all(made)));
      }
      return { id: request.id, type: 'users', users };
    },
    stop: async () => {
      await app.close();
      await database.close();
    },
  });
}
