import { Redis } from 'ioredis';
import { WebSocketServer, type WebSocket } from 'ws';
import { serveWebSocketServer } from '../media/child-ipc';

/**
 * The baselines for one-way paths, with nothing else in the way.
 *
 * Without arguments, a bare `ws` server that joins the two sockets opened on the same /pair/<id>
 * and sends each one's messages to the other.
 *
 * With a Redis URL and a channel prefix, one of two such servers in separate processes, as two
 * instances would be: a socket opened on /pair/<id>/<a|b> sends its messages to Redis on the other
 * side's channel and receives its own side's, each frame one PUBLISH, written together with the
 * others of its turn of the event loop (ioredis's auto-pipelining): the simplest relay through
 * Redis pub/sub, which Voxline's relayed calls (src/server/media/media-exchange.ts) are set beside.
 *
 * Sockets on any other path are only held, as the listening tabs are.
 */
const [redisUrl, channelPrefix = 'bare-relay'] = process.argv.slice(2);
const server = redisUrl ? await acrossRedis(redisUrl, channelPrefix) : inProcess();
serveWebSocketServer(server);

function inProcess() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 });
  const waiting = new Map<string, WebSocket>();
  server.on('connection', (socket, request) => {
    const pair = /^\/pair\/([\w-]+)$/.exec(request.url ?? '')?.[1];
    if (!pair) return;
    const first = waiting.get(pair);
    if (!first) {
      waiting.set(pair, socket);
      socket.once('close', () => {
        if (waiting.get(pair) === socket) waiting.delete(pair);
      });
      return;
    }
    waiting.delete(pair);
    first.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
    socket.on('message', (data, isBinary) => first.send(data, { binary: isBinary }));
    first.once('close', () => socket.close());
    socket.once('close', () => first.close());
  });
  return server;
}

async function acrossRedis(url: string, prefix: string) {
  const publisher = new Redis(url, { enableAutoPipelining: true });
  const subscriber = new Redis(url);
  // A SUBSCRIBE sent before the connection is ready can be lost (see RedisBus.whenReady).
  await Promise.all([publisher, subscriber].map((client) => new Promise((resolve) => client.once('ready', resolve))));
  const sockets = new Map<string, WebSocket>();
  const channelOf = (pair: string, side: string) => `${prefix}:${pair}:${side}`;
  const pairOf = (path: string | undefined) => /^\/pair\/([\w-]+)\/(a|b)$/.exec(path ?? '');
  subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) => sockets.get(channel.toString())?.send(payload, { binary: true }));

  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    maxPayload: 64 * 1024,
    // The socket is taken only once its channel is subscribed, so that no frame sent to it is lost.
    verifyClient: ({ req }, done) => {
      const match = pairOf(req.url);
      if (!match) return done(true);
      subscriber.subscribe(channelOf(match[1]!, match[2]!)).then(
        () => done(true),
        () => done(false, 503),
      );
    },
  });
  server.on('connection', (socket, request) => {
    const match = pairOf(request.url);
    if (!match) return;
    const [, pair, side] = match as unknown as [string, string, 'a' | 'b'];
    const own = channelOf(pair, side);
    const other = channelOf(pair, side === 'a' ? 'b' : 'a');
    sockets.set(own, socket);
    socket.on('message', (data: Buffer) => publisher.publish(other, data).catch(() => {}));
    socket.once('close', () => {
      sockets.delete(own);
      subscriber.unsubscribe(own).catch(() => {});
    });
  });
  server.on('close', () => {
    publisher.disconnect();
    subscriber.disconnect();
  });
  return server;
}
