import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/support/free-port';
import { until } from '../../tests/support/until';
import { independentLoss, type LinkProfile } from './impairment';
import { profiles } from './profiles';
import { TcpImpairmentProxy } from './tcp-impairment-proxy';

const HOST = '127.0.0.1';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function link(overrides: Partial<LinkProfile>): LinkProfile {
  return { ...profiles.clean, name: 'test', ...overrides };
}

/** A server that sends back what it reads (and ends when its client does), or only keeps it. */
async function server(kind: 'echo' | 'sink') {
  const received: { chunk: Buffer; atMs: number }[] = [];
  const listening = net.createServer((socket) => {
    socket.on('data', (chunk) => received.push({ chunk, atMs: performance.now() }));
    if (kind === 'echo') socket.pipe(socket);
    else socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => listening.listen(0, HOST, resolve));
  cleanups.push(() => new Promise((resolve) => listening.close(() => resolve())));
  const receivedBytes = () => received.reduce((sum, { chunk }) => sum + chunk.length, 0);
  return { port: (listening.address() as net.AddressInfo).port, received, receivedBytes };
}

async function proxyTo(targetPort: number, profile: LinkProfile, options: { windowBytes?: number } = {}) {
  const proxy = new TcpImpairmentProxy({ listenAddress: HOST, listenPort: 0, targetAddress: HOST, targetPort, profile, seed: 4, ...options });
  await proxy.start();
  cleanups.push(() => proxy.stop());
  return proxy;
}

async function connect(port: number) {
  const socket = net.connect({ host: HOST, port });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  cleanups.push(async () => void socket.destroy());
  return socket;
}

/** Everything a socket reads until the far end closes it. */
function readToEnd(socket: net.Socket) {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    socket.once('end', () => resolve(Buffer.concat(chunks)));
    socket.once('error', reject);
  });
}

describe('TcpImpairmentProxy', () => {
  it('passes the bytes on intact and in order through jitter and loss, and passes the close on after them', async () => {
    const echo = await server('echo');
    const proxy = await proxyTo(echo.port, link({ oneWayDelayMs: 5, jitter: { ms: 5, distribution: 'uniform' }, loss: independentLoss(0.05) }));
    const client = await connect(proxy.port);
    const sent = randomBytes(300_000);
    const echoed = readToEnd(client);
    for (let offset = 0; offset < sent.length; offset += 10_000) client.write(sent.subarray(offset, offset + 10_000));
    client.end();
    expect((await echoed).equals(sent)).toBe(true);
    const bothWays = { receivedBytes: sent.length, forwardedBytes: sent.length };
    expect(proxy.counters).toEqual({ upstream: bothWays, downstream: bothWays });
  });

  it('delays each direction by the one-way delay', async () => {
    const echo = await server('echo');
    const client = await connect((await proxyTo(echo.port, link({ oneWayDelayMs: 30 }))).port);
    for (let i = 0; i < 3; i += 1) {
      const sentAt = performance.now();
      client.write('ping');
      await new Promise((resolve) => client.once('data', resolve));
      expect(performance.now() - sentAt).toBeGreaterThanOrEqual(60);
    }
  });

  it('holds a lost segment back by a retransmission timeout, and what follows it', async () => {
    const sink = await server('sink');
    const proxy = await proxyTo(sink.port, link({ loss: independentLoss(1) }));
    const client = await connect(proxy.port);
    const sentAt = performance.now();
    client.write('lost');
    await until(() => proxy.counters.upstream.receivedBytes === 4);
    expect(sink.received).toEqual([]);
    proxy.setProfile(profiles.clean);
    client.write('after');
    await until(() => sink.receivedBytes() === 9);
    expect(Buffer.concat(sink.received.map(({ chunk }) => chunk)).toString()).toBe('lostafter');
    expect(sink.received[0]!.atMs - sentAt).toBeGreaterThanOrEqual(200);
  });

  it('holds the rate cap', async () => {
    const sink = await server('sink');
    // 800 kbit/s is 100 bytes a millisecond; the bucket starts with 3,000 bytes.
    const capped = link({ rateCap: { bitsPerSecond: 800_000, burstBytes: 3_000, queueBytes: 3_000 } });
    const client = await connect((await proxyTo(sink.port, capped)).port);
    const sentAt = performance.now();
    client.write(randomBytes(50_000));
    await until(() => sink.receivedBytes() === 50_000);
    expect(sink.received.at(-1)!.atMs - sentAt).toBeGreaterThanOrEqual((50_000 - 3_000) / 100);
  });

  it('switches profile while running, on connections already open', async () => {
    const echo = await server('echo');
    const proxy = await proxyTo(echo.port, link({ oneWayDelayMs: 60_000 }));
    const client = await connect(proxy.port);
    proxy.setProfile(profiles.clean);
    client.write('hello');
    await new Promise((resolve) => client.once('data', resolve));
  });

  it('closes the client when the target refuses it', async () => {
    const proxy = await proxyTo(await freePort(), profiles.clean);
    const client = await connect(proxy.port);
    await new Promise((resolve) => client.once('close', resolve));
  });

  it('closes its connections and its port when stopped', async () => {
    const echo = await server('echo');
    const proxy = new TcpImpairmentProxy({ listenAddress: HOST, listenPort: await freePort(), targetAddress: HOST, targetPort: echo.port, profile: profiles.clean, seed: 1 });
    await proxy.start();
    const client = await connect(proxy.port);
    const closed = new Promise((resolve) => client.once('close', resolve));
    const { port } = proxy;
    await proxy.stop();
    await closed;
    const again = net.createServer();
    await new Promise<void>((resolve) => again.listen(port, HOST, resolve));
    await new Promise((resolve) => again.close(resolve));
  });
});
