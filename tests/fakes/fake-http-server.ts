import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  status: number;
  /** Sent as JSON; no body when undefined. */
  body?: unknown;
  /** Runs once the reply has been sent (a fake's follow-up, such as a webhook). */
  after?: () => void;
}

export interface FakeHttpServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/** The loopback HTTP server every provider fake runs on: a handler from request and raw body to a JSON reply. */
export async function startFakeHttpServer(handle: (request: http.IncomingMessage, rawBody: string) => FakeReply): Promise<FakeHttpServer> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = handle(request, Buffer.concat(chunks).toString('utf8'));
      if (reply.body === undefined) response.writeHead(reply.status).end();
      else response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
      reply.after?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
