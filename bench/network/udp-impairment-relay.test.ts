import dgram from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../tests/support/until';
import { Impairment, independentLoss, type LinkProfile } from './impairment';
import { profiles } from './profiles';
import { derivedSeed } from './seeded-random';
import { UdpImpairmentRelay, type UdpImpairmentRelayOptions } from './udp-impairment-relay';

const HOST = '127.0.0.1';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function link(overrides: Partial<LinkProfile>): LinkProfile {
  return { ...profiles.clean, name: 'test', ...overrides };
}

async function bound(port = 0) {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, HOST, resolve);
  });
  cleanups.push(() => new Promise((resolve) => socket.close(() => resolve())));
  return socket;
}

/** `count` consecutive UDP ports free on 127.0.0.1 a moment ago. */
async function freeUdpPorts(count: number): Promise<number> {
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * 40_000);
    const sockets: dgram.Socket[] = [];
    try {
      for (let port = first; port < first + count; port += 1) {
        const socket = dgram.createSocket('udp4');
        sockets.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.bind(port, HOST, resolve);
        });
      }
      return first;
    } catch {
      continue;
    } finally {
      await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
    }
  }
}

/** A target that records what reaches it and, if asked, answers each datagram with its port and the datagram. */
async function target(port = 0, { echo = false } = {}) {
  const socket = await bound(port);
  const received: { datagram: Buffer; from: number; atMs: number }[] = [];
  socket.on('message', (datagram, sender) => {
    received.push({ datagram, from: sender.port, atMs: performance.now() });
    if (echo) socket.send(`${socket.address().port}:${datagram.toString()}`, sender.port, sender.address);
  });
  return { port: socket.address().port, received };
}

async function relay(options: Partial<UdpImpairmentRelayOptions> & { firstPort: number; targetPortOffset: number }) {
  const started = new UdpImpairmentRelay({ listenAddress: HOST, lastPort: options.firstPort, targetAddress: HOST, profile: profiles.clean, seed: 1, ...options });
  await started.start();
  cleanups.push(() => started.stop());
  return started;
}

/** A relay on one free port in front of a target on another. */
async function relayTo(targetPort: number, profile: LinkProfile, seed = 1) {
  const firstPort = await freeUdpPorts(1);
  return { relay: await relay({ firstPort, targetPortOffset: targetPort - firstPort, profile, seed }), port: firstPort };
}

/** Sends in batches the relay has taken in before the next, so no socket buffer overflows. */
async function sendAll(client: dgram.Socket, datagrams: Buffer[], port: number, relayed: UdpImpairmentRelay) {
  const before = relayed.counters.upstream.received;
  for (let start = 0; start < datagrams.length; start += 100) {
    const batch = datagrams.slice(start, start + 100);
    for (const datagram of batch) client.send(datagram, port, HOST);
    await until(() => relayed.counters.upstream.received - before === start + batch.length);
  }
}

function numbered(count: number, bytes = 100) {
  return Array.from({ length: count }, (_, i) => {
    const datagram = Buffer.alloc(bytes);
    datagram.writeUInt32BE(i);
    return datagram;
  });
}

describe('UdpImpairmentRelay', () => {
  it('forwards to the same port offset on the target, and answers go back to the client that asked', async () => {
    const targetFirst = await freeUdpPorts(2);
    const targets = [await target(targetFirst, { echo: true }), await target(targetFirst + 1, { echo: true })];
    const firstPort = await freeUdpPorts(2);
    await relay({ firstPort, lastPort: firstPort + 1, targetPortOffset: targetFirst - firstPort });
    const [alice, bob] = [await bound(), await bound()];
    const heard = { alice: [] as string[], bob: [] as string[] };
    alice.on('message', (reply, from) => heard.alice.push(`${from.port - firstPort} ${reply.toString()}`));
    bob.on('message', (reply, from) => heard.bob.push(`${from.port - firstPort} ${reply.toString()}`));
    alice.send('a', firstPort, HOST);
    alice.send('a', firstPort + 1, HOST);
    bob.send('b', firstPort, HOST);
    await until(() => heard.alice.length === 2 && heard.bob.length === 1);
    expect(heard.alice.sort()).toEqual([`0 ${targetFirst}:a`, `1 ${targetFirst + 1}:a`]);
    expect(heard.bob).toEqual([`0 ${targetFirst}:b`]);
    // Each client reaches the target from an address of its own.
    expect(targets[0]!.received[0]!.from).not.toBe(targets[0]!.received[1]!.from);
  });

  it('loses the share of datagrams its seed decides, no more', async () => {
    const lossy = link({ loss: independentLoss(0.05) });
    const receiver = await target();
    const { relay: relayed, port } = await relayTo(receiver.port, lossy, 5);
    await sendAll(await bound(), numbered(2_000), port, relayed);
    const model = new Impairment(lossy, derivedSeed(5, 0), 'datagrams');
    const expectedLost = numbered(2_000).filter(() => model.plan(0, 100).kind === 'lost').length;
    expect(expectedLost).toBeGreaterThan(70);
    expect(expectedLost).toBeLessThan(130);
    expect(relayed.counters.upstream.lost).toBe(expectedLost);
    await until(() => receiver.received.length === 2_000 - expectedLost);
    expect(relayed.counters.upstream).toMatchObject({ received: 2_000, forwarded: 2_000 - expectedLost, forwardedBytes: (2_000 - expectedLost) * 100 });
  });

  it('delays each direction by the one-way delay', async () => {
    const echo = await target(0, { echo: true });
    const { port } = await relayTo(echo.port, link({ oneWayDelayMs: 40 }));
    const client = await bound();
    const roundTrips: number[] = [];
    const sentAt = new Map<string, number>();
    client.on('message', (reply) => roundTrips.push(performance.now() - sentAt.get(reply.toString().split(':')[1]!)!));
    for (let i = 0; i < 5; i += 1) {
      sentAt.set(String(i), performance.now());
      client.send(String(i), port, HOST);
    }
    await until(() => roundTrips.length === 5);
    for (const roundTrip of roundTrips) expect(roundTrip).toBeGreaterThanOrEqual(80);
  });

  it('reorders with jitter and counts what the target sees out of order', async () => {
    const receiver = await target();
    const { relay: relayed, port } = await relayTo(receiver.port, link({ oneWayDelayMs: 20, jitter: { ms: 15, distribution: 'uniform' } }));
    await sendAll(await bound(), numbered(300), port, relayed);
    await until(() => receiver.received.length === 300);
    let highest = -1;
    let late = 0;
    for (const { datagram } of receiver.received) {
      const sequence = datagram.readUInt32BE(0);
      if (sequence < highest) late += 1;
      highest = Math.max(highest, sequence);
    }
    expect(late).toBeGreaterThan(0);
    expect(relayed.counters.upstream.reordered).toBe(late);
  });

  it('duplicates a seeded share of datagrams', async () => {
    const receiver = await target();
    const { relay: relayed, port } = await relayTo(receiver.port, link({ duplicateRate: 0.2 }));
    await sendAll(await bound(), numbered(500), port, relayed);
    const { duplicated } = relayed.counters.upstream;
    expect(duplicated).toBeGreaterThan(60);
    expect(duplicated).toBeLessThan(140);
    await until(() => receiver.received.length === 500 + duplicated);
    expect(new Set(receiver.received.map(({ datagram }) => datagram.readUInt32BE(0))).size).toBe(500);
  });

  it('holds a rate cap, dropping what overflows its queue', async () => {
    const receiver = await target();
    // 80 kbit/s: a 1,000-byte datagram every 100 ms; one in the bucket, three in the queue.
    const capped = link({ rateCap: { bitsPerSecond: 80_000, burstBytes: 1_000, queueBytes: 3_000 } });
    const { relay: relayed, port } = await relayTo(receiver.port, capped);
    const sentAt = performance.now();
    await sendAll(await bound(), numbered(10, 1_000), port, relayed);
    const { queueDropped } = relayed.counters.upstream;
    expect(queueDropped).toBeGreaterThan(0);
    await until(() => receiver.received.length === 10 - queueDropped);
    expect(receiver.received.at(-1)!.atMs - sentAt).toBeGreaterThanOrEqual((receiver.received.length - 1) * 100);
  });

  it('switches profile while running', async () => {
    const receiver = await target();
    const { relay: relayed, port } = await relayTo(receiver.port, link({ loss: independentLoss(1) }));
    const client = await bound();
    await sendAll(client, numbered(5), port, relayed);
    expect(relayed.counters.upstream.lost).toBe(5);
    relayed.setProfile(profiles.clean);
    await sendAll(client, numbered(5), port, relayed);
    await until(() => receiver.received.length === 5);
    expect(relayed.counters.upstream).toMatchObject({ received: 10, lost: 5, forwarded: 5 });
  });

  it('loses the clients’ datagrams a filter picks, every time, until the filter is taken off', async () => {
    const receiver = await target();
    const { relay: relayed, port } = await relayTo(receiver.port, profiles.clean);
    const client = await bound();
    relayed.dropUpstreamWhen((datagram) => datagram.readUInt32BE(0) % 2 === 1);
    await sendAll(client, numbered(10), port, relayed);
    await until(() => receiver.received.length === 5);
    expect(receiver.received.map(({ datagram }) => datagram.readUInt32BE(0))).toEqual([0, 2, 4, 6, 8]);
    expect(relayed.counters.upstream).toMatchObject({ received: 10, lost: 5, forwarded: 5 });
    relayed.dropUpstreamWhen(null);
    await sendAll(client, numbered(2), port, relayed);
    await until(() => receiver.received.length === 7);
  });

  it('counts the downstream on its own', async () => {
    const echo = await target(0, { echo: true });
    const { relay: relayed, port } = await relayTo(echo.port, link({ loss: independentLoss(0.5) }), 3);
    const client = await bound();
    let replies = 0;
    client.on('message', () => (replies += 1));
    await sendAll(client, numbered(200), port, relayed);
    const { upstream, downstream } = relayed.counters;
    await until(() => upstream.forwarded + upstream.lost === 200);
    await until(() => downstream.received === upstream.forwarded && downstream.forwarded + downstream.lost === downstream.received);
    await until(() => replies === downstream.forwarded);
    expect(downstream.lost).toBeGreaterThan(0);
    expect(downstream.lost).not.toBe(upstream.lost);
  });

  it('releases its ports when stopped', async () => {
    const firstPort = await freeUdpPorts(3);
    const started = new UdpImpairmentRelay({ listenAddress: HOST, firstPort, lastPort: firstPort + 2, targetAddress: HOST, profile: profiles.clean, seed: 1 });
    await started.start();
    await started.stop();
    for (let port = firstPort; port <= firstPort + 2; port += 1) await bound(port);
  });
});
