import { divide, gauge, histogramQuantile, labelReplace, max, type Query, rate, scale, sum, topk } from './query';

/** Grafana's unit ids for the units the panels use; the static render formats them the same way. */
export type Unit = 's' | 'percentunit' | 'bytes' | 'short' | 'reqps' | 'cpm';

interface Target {
  query: Query;
  /** Grafana's legend format: `{{label}}` stands for a series' label. */
  legend: string;
}

export interface Panel {
  title: string;
  /** Shown in Grafana's panel information: what to read in it. */
  description: string;
  unit: Unit;
  targets: Target[];
  /** A line drawn across the panel, such as a budget. */
  threshold?: { value: number; label: string };
}

export interface Row {
  title: string;
  panels: Panel[];
}

/** Counted per minute: events too rare for a rate per second to read well. */
const PER_MINUTE = 60;

/**
 * The dashboard, one panel list for both the Grafana JSON (grafana-dashboard.ts) and the static
 * render (render-html.ts), over the metrics listed in docs/operations.md.
 */
export const dashboardRows: Row[] = [
  {
    title: 'Calls',
    panels: [
      {
        title: 'Calls up',
        description: 'Calls the instances carry now, by direction and state (ringing until answered).',
        unit: 'short',
        targets: [{ query: sum(['state', 'direction'], gauge('voxline_calls_active')), legend: '{{direction}} {{state}}' }],
      },
      {
        title: 'Call set-up time',
        description: 'From placing a call to its answer or end, median and 95th percentile over the rate window.',
        unit: 's',
        targets: [
          { query: histogramQuantile(0.5, 'voxline_call_setup_seconds', ['direction']), legend: 'p50 {{direction}}' },
          { query: histogramQuantile(0.95, 'voxline_call_setup_seconds', ['direction']), legend: 'p95 {{direction}}' },
        ],
      },
      {
        title: 'Call duration',
        description: 'How long the calls that ended lasted, median and 95th percentile.',
        unit: 's',
        targets: [
          { query: histogramQuantile(0.5, 'voxline_call_duration_seconds', ['direction']), legend: 'p50 {{direction}}' },
          { query: histogramQuantile(0.95, 'voxline_call_duration_seconds', ['direction']), legend: 'p95 {{direction}}' },
        ],
      },
      {
        title: 'Calls ended per minute',
        description: 'Calls ending, by how they ended (completed, rejected, no-answer, busy, unavailable, failed, cancelled).',
        unit: 'cpm',
        targets: [{ query: scale(sum(['status'], rate('voxline_calls_ended_total')), PER_MINUTE), legend: '{{status}}' }],
      },
    ],
  },
  {
    title: 'Media and voice',
    panels: [
      {
        title: 'Media frames per second',
        description: 'Audio frames received from (in) and sent to (out) browsers and carriers, by transport.',
        unit: 'short',
        targets: [{ query: sum(['transport', 'direction'], rate('voxline_media_frames_total')), legend: '{{transport}} {{direction}}' }],
      },
      {
        title: 'Concealed frames, share of frames in',
        description: 'Frames the server had to make up for lost or late ones, as a share of the frames it received, by transport.',
        unit: 'percentunit',
        targets: [
          {
            query: divide(sum(['transport'], rate('voxline_media_concealed_frames_total')), sum(['transport'], rate('voxline_media_frames_total', { direction: 'in' }))),
            legend: '{{transport}}',
          },
        ],
      },
      {
        title: 'Jitter p95',
        description: 'How far frames arrive from their 20 ms rhythm, 95th percentile by transport.',
        unit: 's',
        targets: [{ query: histogramQuantile(0.95, 'voxline_media_jitter_seconds', ['transport']), legend: '{{transport}}' }],
      },
      {
        title: 'Voice engine time per frame, p99',
        description: 'Time the voice changer takes on one 20 ms frame, 99th percentile; above the 20 ms budget it falls behind the call.',
        unit: 's',
        targets: [{ query: histogramQuantile(0.99, 'voxline_voice_engine_frame_seconds'), legend: 'p99' }],
        threshold: { value: 0.02, label: '20 ms budget' },
      },
    ],
  },
  {
    title: 'Realtime',
    panels: [
      {
        title: 'Listening tabs',
        description: 'Signed-in tabs waiting for calls, by instance; a draining instance sends its tabs elsewhere.',
        unit: 'short',
        targets: [{ query: sum(['instance'], gauge('voxline_listening_tabs')), legend: '{{instance}}' }],
      },
      {
        title: 'WebSocket connections',
        description: 'Open websockets: realtime (signalling) and media (call audio).',
        unit: 'short',
        targets: [{ query: sum(['kind'], gauge('voxline_websocket_connections')), legend: '{{kind}}' }],
      },
    ],
  },
  {
    title: 'HTTP',
    panels: [
      {
        title: 'Requests per second by status class',
        description: 'HTTP requests answered, by the first digit of their status.',
        unit: 'reqps',
        targets: [
          {
            query: sum(['status_class'], labelReplace(rate('voxline_http_requests_total'), 'status_class', '${1}xx', 'status', '(.).*')),
            legend: '{{status_class}}',
          },
        ],
      },
      {
        title: 'Latency p95 by route, top 10',
        description: 'The 95th percentile of answer time for the ten slowest routes at each moment.',
        unit: 's',
        targets: [{ query: topk(10, histogramQuantile(0.95, 'voxline_http_request_duration_seconds', ['route'])), legend: '{{route}}' }],
      },
    ],
  },
  {
    title: 'Runtime',
    panels: [
      {
        title: 'Event-loop lag',
        description: 'How late the event loop runs a callback that is due now, by instance; call audio is late by as much.',
        unit: 's',
        targets: [{ query: max(['instance'], gauge('voxline_nodejs_eventloop_lag_seconds')), legend: '{{instance}}' }],
      },
      {
        title: 'GC pauses, share of time',
        description: 'Time spent in garbage collection per second, by kind and instance.',
        unit: 'percentunit',
        targets: [{ query: sum(['instance', 'kind'], rate('voxline_nodejs_gc_duration_seconds_sum')), legend: '{{kind}} {{instance}}' }],
      },
      {
        title: 'CPU, share of one core',
        description: 'User and system CPU time per second, by instance.',
        unit: 'percentunit',
        targets: [{ query: sum(['instance'], rate('voxline_process_cpu_seconds_total')), legend: '{{instance}}' }],
      },
      {
        title: 'JS heap used',
        description: 'V8 heap in use, by instance.',
        unit: 'bytes',
        targets: [{ query: sum(['instance'], gauge('voxline_nodejs_heap_size_used_bytes')), legend: '{{instance}}' }],
      },
    ],
  },
  {
    title: 'Data',
    panels: [
      {
        title: 'Database pool',
        description: 'PostgreSQL pool connections: total, idle, and requests waiting for one.',
        unit: 'short',
        targets: [{ query: sum(['state'], gauge('voxline_db_pool_connections')), legend: '{{state}}' }],
      },
      {
        title: 'Database query time p95',
        description: 'The 95th percentile of query time.',
        unit: 's',
        targets: [{ query: histogramQuantile(0.95, 'voxline_db_query_duration_seconds'), legend: 'p95' }],
      },
      {
        title: 'Bus lag between instances p95',
        description: 'From one instance publishing on the Redis bus to another receiving, 95th percentile (with REDIS_URL only).',
        unit: 's',
        targets: [{ query: histogramQuantile(0.95, 'voxline_bus_lag_seconds'), legend: 'p95' }],
      },
    ],
  },
  {
    title: 'Business',
    panels: [
      {
        title: 'Payments per minute by outcome',
        description: 'Payments verified, by outcome.',
        unit: 'cpm',
        targets: [{ query: scale(sum(['outcome'], rate('voxline_payments_total')), PER_MINUTE), legend: '{{outcome}}' }],
      },
      {
        title: 'Mail per minute',
        description: 'Mail handed to SMTP or the outbox (sent) and mail that could not be (failed).',
        unit: 'cpm',
        targets: [{ query: scale(sum(['outcome'], rate('voxline_mail_total')), PER_MINUTE), legend: '{{outcome}}' }],
      },
    ],
  },
];
