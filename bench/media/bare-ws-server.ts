import { WebSocketServer } from 'ws';
import { serveWebSocketServer } from './child-ipc';

/** The baseline: a bare `ws` server that sends every message straight back, with nothing else in the way. */
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 });

server.on('connection', (socket) => {
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
});

serveWebSocketServer(server);
