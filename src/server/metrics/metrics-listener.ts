import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { METRICS_PATH } from './metrics-routes';

/**
 * /metrics on a port of its own (METRICS_PORT), bound to METRICS_HOST: by default this machine
 * only, where a Prometheus on the host or a private network scrapes it without a token.
 */
export class MetricsListener {
  private readonly server: http.Server;

  constructor(
    registry: Registry,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    this.server = http.createServer((request, response) => void this.answer(registry, request, response));
  }

  /** Resolves with the address once listening; rejects naming the address it could not take. */
  listen(host: string, port: number): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(new Error(`cannot serve the metrics on ${host}:${port} (METRICS_PORT): ${error.message}`));
      this.server.once('error', failed);
      this.server.listen(port, host, () => {
        this.server.off('error', failed);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  address(): AddressInfo | null {
    return this.server.listening ? (this.server.address() as AddressInfo) : null;
  }

  /** Stops listening and ends the scrapers' kept-alive connections, which would hold the close. */
  close(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async answer(registry: Registry, request: http.IncomingMessage, response: http.ServerResponse) {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Nothing here: the metrics are at ${METRICS_PATH}\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('The metrics are read with GET\n');
      return;
    }
    try {
      const body = await registry.metrics();
      response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.log.warn({ err: error }, 'metrics could not be collected');
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected\n');
    }
  }
}
