import { WebSocketServer, type WebSocket } from 'ws';
import { serveWebSocketServer } from '../media/child-ipc';

/**
 * The baseline for one-way paths: a bare `ws` server that joins the two sockets opened on the same
 * /pair/<id> and sends each one's messages to the other, with nothing else in the way. Sockets on
 * any other path are only held, as the listening tabs are.
 */
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

serveWebSocketServer(server);
