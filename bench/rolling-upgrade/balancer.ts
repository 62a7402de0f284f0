import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { UpstreamPool, type Upstream } from './upstream-pool';

const READINESS_PATH = '/api/v1/health/ready';
/** Added to every answer the balancer passes on: which instance gave it (the bench records which one placed each call). */
export const UPSTREAM_HEADER = 'x-bench-upstream';

interface BalancerOptions {
  /** How often each upstream's readiness is asked. */
  pollMs: number;
  /** An answer slower than this counts as not ready. */
  pollTimeoutMs: number;
  /** An upstream turned ready or not ready, as the balancer saw it. */
  onChange?: (upstream: Upstream) => void;
}

/**
 * A small load balancer in front of Voxline instances, as docs/deploy.md#the-load-balancer asks
 * for: it polls each instance's /api/v1/health/ready and sends every new request and websocket
 * to a ready one, in turn. A websocket is tunnelled byte for byte to the instance chosen when it
 * opened and stays there, ready or not, until one side closes it, as nginx's does.
 */
export class Balancer {
  readonly pool = new UpstreamPool();
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly tunnels = new Map<string, Set<Duplex>>();
  private readonly polling = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: BalancerOptions) {
    this.server = http.createServer((request, response) => this.forward(request, response));
    this.server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => this.tunnel(request, socket, head));
  }

  /** Listens on a free port of 127.0.0.1 and starts polling; answers the port. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.timer = setInterval(() => this.pollAll(), this.options.pollMs);
    return (this.server.address() as AddressInfo).port;
  }

  /** A new instance: it gets work once its readiness answers 200. */
  add(name: string, port: number) {
    this.pool.add(name, port);
    this.tunnels.set(name, new Set());
    this.pollAll();
  }

  /** An instance that has gone (exited): forgotten. */
  remove(name: string) {
    this.pool.remove(name);
    this.tunnels.delete(name);
  }

  /** The websockets open through the balancer to `name`. */
  websockets(name: string): number {
    return this.tunnels.get(name)?.size ?? 0;
  }

  async close() {
    if (this.timer) clearInterval(this.timer);
    for (const sockets of this.tunnels.values()) for (const socket of sockets) socket.destroy();
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pollAll() {
    for (const upstream of this.pool.all) {
      if (this.polling.has(upstream.name)) continue;
      this.polling.add(upstream.name);
      void this.isReady(upstream.port).then((ready) => {
        this.polling.delete(upstream.name);
        if (this.pool.setReady(upstream.name, ready)) this.options.onChange?.(upstream);
      });
    }
  }

  private async isReady(port: number): Promise<boolean> {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}${READINESS_PATH}`, { signal: AbortSignal.timeout(this.options.pollTimeoutMs) });
      await answer.arrayBuffer();
      return answer.status === 200;
    } catch {
      return false;
    }
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse) {
    const upstream = this.pool.pick();
    if (!upstream) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('no ready upstream');
      return;
    }
    const proxied = http.request({ host: '127.0.0.1', port: upstream.port, method: request.method, path: request.url, headers: request.headers, agent: this.agent }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, [UPSTREAM_HEADER]: upstream.name });
      answer.pipe(response);
    });
    proxied.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end(`${upstream.name}: ${error.message}`);
      else response.destroy(error);
    });
    request.pipe(proxied);
  }

  /** Passes the upgrade request on as it came, then the bytes both ways. */
  private tunnel(request: http.IncomingMessage, client: Duplex, head: Buffer) {
    const upstream = this.pool.pick();
    if (!upstream) {
      client.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    const open = this.tunnels.get(upstream.name)!;
    const server = net.connect(upstream.port, '127.0.0.1');
    open.add(client);
    const done = () => {
      open.delete(client);
      client.destroy();
      server.destroy();
    };
    client.on('error', done).on('close', done);
    server.on('error', done).on('close', done);
    server.setNoDelay(true);
    server.once('connect', () => {
      const headers: string[] = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2) headers.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}\r\n`);
      server.write(`${request.method} ${request.url} HTTP/1.1\r\n${headers.join('')}\r\n`);
      if (head.length > 0) server.write(head);
      server.pipe(client);
      client.pipe(server);
    });
  }
}
