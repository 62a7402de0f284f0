import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { WIDEBAND_RATE } from '../../common/calls';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { user } from '../auth/schema';
import { LocalBus } from '../bus/local-bus';
import type { DatabaseHandle } from '../db/client';
import { AppError } from '../http/app-error';
import { MemoryPresence } from '../realtime/presence';
import { RealtimeHub } from '../realtime/realtime-hub';
import type { CallLog } from './call-log';
import { CallRouting, type CallRequest } from './call-routing';
import { LiveCalls } from './live-calls';
import { calls } from './schema';

/** Just enough of a browser's media socket for a relay: open, and how it was closed. */
class FakeMediaSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly CONNECTING = 0;
  readyState = 1;
  closedWith: { code: number; reason: string } | null = null;
  send() {}
  close(code: number, reason: string) {
    this.readyState = 3;
    this.closedWith = { code, reason };
  }
}

const log: CallLog = { info: () => {}, warn: () => {}, child: () => log };
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const opened: { hub: RealtimeHub; live: LiveCalls; routing: CallRouting }[] = [];
afterEach(async () => {
  for (const { hub, live, routing } of opened.splice(0)) {
    await live.endAll('The test is over');
    await routing.stop();
    hub.close();
  }
});

/** One instance's routing, on the bus and database it shares with the others. */
async function instance(bus: LocalBus) {
  const hub = new RealtimeHub({ log, bus, presence: new MemoryPresence() });
  const live = new LiveCalls({ db: database.db, hub, log });
  const routing = new CallRouting({ db: database.db, hub, bus, instanceId: randomUUID(), live, log });
  await routing.start();
  opened.push({ hub, live, routing });
  return { live, routing };
}

/** A user with an open call whose record names the instance holding it. */
async function openCall(holder: string, state: 'ringing' | 'ended' = 'ringing') {
  const userId = randomUUID();
  await database.db.insert(user).values({ id: userId, name: 'Caller', email: `${userId}@example.com` });
  const [row] = await database.db
    .insert(calls)
    .values({ conversationId: randomUUID(), userId, direction: 'outbound', fromNumber: '+14155550123', toNumber: '+12125550123', state, metered: false, instanceId: holder })
    .returning();
  return { userId, callId: row!.id };
}

describe('CallRouting', () => {
  it('acts on a request about a call on the instance holding it, and brings its answer or error back', async () => {
    const bus = new LocalBus();
    const holder = await instance(bus);
    const asker = await instance(bus);
    const { userId, callId } = await openCall(holder.routing.instanceId);
    const seen: CallRequest[] = [];
    holder.routing.on('hangup', (request) => void seen.push(request));
    holder.routing.on('mute', () => {
      throw AppError.notFound('No such call in progress');
    });

    await asker.routing.hangUpElsewhere(userId, callId);
    expect(seen).toEqual([{ op: 'hangup', userId, callId }]);
    await expect(asker.routing.forward(userId, callId, 'No such call', { op: 'mute', userId, callId, muted: true })).rejects.toThrow('No such call in progress');
  });

  it('forwards nothing about a call that ended, that is its own, or that the user does not have', async () => {
    const bus = new LocalBus();
    const here = await instance(bus);
    const other = await instance(bus);
    const ended = await openCall(other.routing.instanceId, 'ended');
    const own = await openCall(here.routing.instanceId);

    expect(await here.routing.holderOf(ended.userId, ended.callId, 'No such call')).toBeNull();
    expect(await here.routing.holderOf(own.userId, own.callId, 'No such call')).toBeNull();
    await expect(here.routing.holderOf(own.userId, randomUUID(), 'No such call')).rejects.toThrow('No such call');
    await expect(here.routing.forward(own.userId, own.callId, 'No such call', { op: 'hangup', userId: own.userId, callId: own.callId })).rejects.toThrow('No such call');
  });

  it('relays a media socket to the instance holding its call, which joins it as the caller’s leg', async () => {
    const bus = new LocalBus();
    const holder = await instance(bus);
    const relaying = await instance(bus);
    const { userId, callId } = await openCall(holder.routing.instanceId);
    const call = holder.live.create(callId, userId, WIDEBAND_RATE);
    holder.live.add(call);

    const socket = new FakeMediaSocket();
    await relaying.routing.relayBrowser(userId, callId, socket as unknown as WebSocket, 'opus');
    // The relay decodes the socket's Opus: the holder's leg takes PCM at the call's rate, and records the transport.
    expect(call.caller).toMatchObject({ kind: 'browser', sampleRate: WIDEBAND_RATE, transport: 'websocket-opus' });
    expect(socket.closedWith).toBeNull();

    // The holder stopped without a word: the relay lets the browser go.
    relaying.routing.forgetStoppedInstances(new Set([relaying.routing.instanceId]), []);
    await until(() => socket.closedWith !== null);
    expect(socket.closedWith).toEqual({ code: 1011, reason: 'The server carrying the call stopped' });
  });

  it('closes a media socket for a call that no instance holds', async () => {
    const bus = new LocalBus();
    const here = await instance(bus);
    const ended = await openCall(randomUUID(), 'ended');
    const socket = new FakeMediaSocket();
    await here.routing.relayBrowser(ended.userId, ended.callId, socket as unknown as WebSocket, 'pcm');
    expect(socket.closedWith).toEqual({ code: 4404, reason: 'No such call in progress' });
  });
});
