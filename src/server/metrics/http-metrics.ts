import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';
import { METRICS_PATH } from './metrics-routes';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Counts and times every HTTP answer by method, route and status. The route is the pattern
 * (`/api/v1/calls/:id`), never the URL, whose ids and tokens would make a series per request;
 * a request no route matched counts as "unmatched". Scrapes of /metrics are left out.
 */
export function countHttpRequests(app: FastifyInstance, registry: Registry) {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'voxline_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames, registers: [registry] });
  const durations = new Histogram({ name: 'voxline_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route pattern and status', labelNames, buckets: DURATION_BUCKETS, registers: [registry] });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === METRICS_PATH) return;
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });
}
