import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { BusLagProbe } from './bus-lag-probe';
import type { Metrics } from './metrics';
import { MetricsListener } from './metrics-listener';
import { metricsRoutes } from './metrics-routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where METRICS_PORT serves the metrics once the app is ready; null without it. */
    metricsAddress(): AddressInfo | null;
  }
}

/**
 * Serves the app's metrics where the configuration allows (docs/operations.md#metrics): on
 * METRICS_PORT from the app's start to its close, and at /metrics on the main port for
 * METRICS_TOKEN. Node's own figures are collected only when someone can read them.
 */
export async function serveMetrics(app: FastifyInstance, config: Pick<Config, 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_TOKEN'>, metrics: Metrics, busLag: BusLagProbe | null) {
  const port = config.METRICS_PORT;
  if (port !== undefined || config.METRICS_TOKEN) metrics.collectProcessMetrics();
  await app.register(metricsRoutes, { registry: metrics.registry, token: config.METRICS_TOKEN ?? null });
  const listener = port === undefined ? null : new MetricsListener(metrics.registry, app.log);
  app.decorate('metricsAddress', () => listener?.address() ?? null);
  app.addHook('onReady', async () => {
    if (listener) {
      const { address, port: bound } = await listener.listen(config.METRICS_HOST, port!);
      app.log.info({ address, port: bound }, `metrics at http://${address.includes(':') ? `[${address}]` : address}:${bound}/metrics`);
    }
    busLag?.start().catch((error: unknown) => app.log.warn({ err: error }, 'could not start measuring the bus between instances'));
  });
  // The bus closes with the app; the probe stops first. The metrics are served through a drain.
  app.addHook('preClose', async () => busLag?.stop());
  app.addHook('onClose', async () => listener?.close());
}
