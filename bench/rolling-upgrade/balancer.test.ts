import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { until } from '../../tests/support/until';
import { Balancer } from './balancer';

/** A stand-in for a Voxline instance: a readiness that the test turns, an HTTP answer and a websocket echo that name it. */
async function upstream(name: string) {
  const state = { ready: true };
  const sockets = new WebSocketServer({ noServer: true });
  sockets.on('connection', (socket) => socket.on('message', (data) => socket.send(`${name}:${data.toString()}`)));
  const server = http.createServer((request, response) => {
    if (request.url === '/api/v1/health/ready') response.writeHead(state.ready ? 200 : 503).end();
    else response.writeHead(200, { 'content-type': 'text/plain' }).end(`${name} ${request.method} ${request.url}`);
  });
  server.on('upgrade', (request, socket, head) => sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    name,
    state,
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Opens a websocket through the balancer and answers it with the name of the upstream that echoes on it. */
async function openEcho(port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/realtime`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const echo = async () => {
    const reply = new Promise<string>((resolve) => socket.once('message', (data) => resolve(data.toString())));
    socket.send('hello');
    return (await reply).split(':')[0]!;
  };
  return { socket, echo };
}

describe('the bench balancer', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('sends new requests and websockets to ready upstreams only, and leaves an open websocket where it is', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    closing.push(a.close, b.close);
    const balancer = new Balancer({ pollMs: 20, pollTimeoutMs: 1_000 });
    const port = await balancer.listen();
    closing.push(() => balancer.close());
    balancer.add('a', a.port);
    balancer.add('b', b.port);
    await until(() => balancer.pool.all.every((upstream) => upstream.ready));

    const answers = await Promise.all([1, 2].map(async () => (await fetch(`http://127.0.0.1:${port}/api/v1/calls`, { method: 'POST' })).text()));
    expect(answers.sort()).toEqual(['a POST /api/v1/calls', 'b POST /api/v1/calls']);

    const held = await openEcho(port);
    const holder = await held.echo();
    const other = holder === 'a' ? b : a;
    expect(balancer.websockets(holder)).toBe(1);

    // The holder drains: its readiness turns 503, and the balancer sees it at its next poll.
    (holder === 'a' ? a : b).state.ready = false;
    await until(() => balancer.pool.all.find((upstream) => upstream.name === holder)?.ready === false);
    const later = await Promise.all(
      [1, 2, 3].map(async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/who`);
        return `${answer.headers.get('x-bench-upstream')}: ${await answer.text()}`;
      }),
    );
    expect(later).toEqual([1, 2, 3].map(() => `${other.name}: ${other.name} GET /who`));
    const moved = await openEcho(port);
    expect(await moved.echo()).toBe(other.name);
    expect(await held.echo()).toBe(holder);
    expect(balancer.websockets(holder)).toBe(1);

    held.socket.close();
    moved.socket.close();
    await until(() => balancer.websockets('a') + balancer.websockets('b') === 0);
  });

  it('answers 503 when no upstream is ready', async () => {
    const a = await upstream('a');
    closing.push(a.close);
    a.state.ready = false;
    const balancer = new Balancer({ pollMs: 20, pollTimeoutMs: 1_000 });
    const port = await balancer.listen();
    closing.push(() => balancer.close());
    balancer.add('a', a.port);
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/session`);
    expect(answer.status).toBe(503);
    expect(await answer.text()).toBe('no ready upstream');
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/realtime`);
    const refused = await new Promise<number>((resolve) => socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
    // Closing a socket that never opened reports it as an error, which is what this test expects.
    socket.on('error', () => {});
    socket.terminate();
    expect(refused).toBe(503);
  });
});
