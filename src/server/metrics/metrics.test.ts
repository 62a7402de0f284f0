import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { DECLINED_CARD, payAtCheckout, startPayment } from '../../../tests/support/sandbox-checkout';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';

const TOKEN = 'metrics-test-token-0123456789abcdef';

/** The metrics of the contract (docs/operations.md#metrics), by type; Node's own are prefixed too. */
const CONTRACT = {
  gauge: ['voxline_calls_active', 'voxline_listening_tabs', 'voxline_websocket_connections', 'voxline_db_pool_connections'],
  counter: ['voxline_calls_ended_total', 'voxline_media_frames_total', 'voxline_media_concealed_frames_total', 'voxline_http_requests_total', 'voxline_payments_total', 'voxline_mail_total'],
  histogram: [
    'voxline_call_setup_seconds',
    'voxline_call_duration_seconds',
    'voxline_media_jitter_seconds',
    'voxline_voice_engine_frame_seconds',
    'voxline_http_request_duration_seconds',
    'voxline_db_query_duration_seconds',
    'voxline_bus_lag_seconds',
    'voxline_nodejs_gc_duration_seconds',
  ],
};

/** `# TYPE name type` of each metric in Prometheus's text format. */
function typesIn(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
}

/** The value of the sample `name` whose labels include `labels`, summed over the others; 0 when there is none. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [, sampleName, labelText = '', value] of text.matchAll(/^(\w+)(?:\{(.*)\})? (\S+)$/gm)) {
    if (sampleName !== name) continue;
    const sampleLabels = Object.fromEntries([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((match) => [match[1], match[2]]));
    if (Object.entries(labels).every(([key, expected]) => sampleLabels[key] === expected)) total += Number(value);
  }
  return total;
}

describe('/metrics on the main port', () => {
  let testApp: TestApp;
  let wsBase: string;
  const scrape = async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { echoDelayMs: 0 }, env: { METRICS_TOKEN: TOKEN } });
    wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  afterAll(() => testApp.close());

  it('exposes every metric of the contract, in the Prometheus text format, to the bearer of METRICS_TOKEN', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const types = typesIn(response.body);
    for (const [type, names] of Object.entries(CONTRACT)) for (const name of names) expect(types.get(name), name).toBe(type);
    expect(types.get('voxline_nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(types.get('voxline_process_cpu_seconds_total')).toBe('counter');
    expect(types.get('voxline_nodejs_heap_size_used_bytes')).toBe('gauge');
    // Every label a dashboard selects on exists from the start, at 0.
    expect(response.body).toContain('voxline_calls_active{direction="inbound",state="ringing"} 0');
    expect(response.body).toContain('voxline_media_frames_total{transport="relay",direction="out"} 0');
    expect(response.body).toContain('voxline_media_concealed_frames_total{transport="webrtc"} 0');
    expect(response.body).toContain('voxline_payments_total{outcome="abandoned"} 0');
    expect(response.body).toContain('voxline_voice_engine_frame_seconds_bucket{le="0.00001"}');
    expect(response.body).toContain('voxline_voice_engine_frame_seconds_bucket{le="0.02"}');
  });

  it('lists in docs/operations.md every metric it exposes', async () => {
    const documented = fs.readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    const own = [...typesIn(await scrape()).keys()].filter((name) => !/^voxline_(nodejs|process)_/.test(name));
    expect(own.length).toBeGreaterThan(15);
    expect(own.filter((name) => !documented.includes(`\`${name}\``))).toEqual([]);
  });

  it('refuses a request without the token, or with another one (401)', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`, TOKEN]) {
      const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json().error.code).toBe('unauthenticated');
      expect(response.body).not.toContain('voxline_');
    }
  });

  it('moves with a call: active while it lasts, its frames, its duration and the request that placed it', async () => {
    const before = await scrape();
    const person = await newSignedInUser(testApp.app);
    const from = await rentANumber(person.browser);
    const placed = await person.browser.post('/api/v1/calls', { from, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const media = await MediaClient.connect(`${wsBase}${placed.json().mediaPath}`, cookieHeader(person.browser.cookies));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 60, 10_000);

    const during = await scrape();
    expect(valueOf(during, 'voxline_calls_active', { direction: 'outbound', state: 'answered' })).toBe(1);
    expect(valueOf(during, 'voxline_websocket_connections', { kind: 'media' })).toBe(1);
    expect(valueOf(during, 'voxline_call_setup_seconds_count', { direction: 'outbound' }) - valueOf(before, 'voxline_call_setup_seconds_count', { direction: 'outbound' })).toBe(1);
    expect(valueOf(during, 'voxline_media_frames_total', { transport: 'websocket-pcm', direction: 'in' })).toBeGreaterThanOrEqual(60);
    expect(valueOf(during, 'voxline_media_frames_total', { transport: 'websocket-pcm', direction: 'out' })).toBeGreaterThanOrEqual(60);
    expect(valueOf(during, 'voxline_voice_engine_frame_seconds_count')).toBeGreaterThanOrEqual(60);
    // One estimate a second per stream: the 50th frame in gave the first.
    expect(valueOf(during, 'voxline_media_jitter_seconds_count', { transport: 'websocket-pcm' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(during, 'voxline_db_query_duration_seconds_count')).toBeGreaterThan(0);
    if (testApp.database.driver === 'postgres') expect(valueOf(during, 'voxline_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    else expect(during).not.toContain('voxline_db_pool_connections{');

    media.close();
    await until(async () => valueOf(await scrape(), 'voxline_calls_active') === 0);
    const after = await scrape();
    const grew = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(grew('voxline_calls_ended_total', { direction: 'outbound', status: 'completed' })).toBe(1);
    expect(grew('voxline_call_duration_seconds_count', { direction: 'outbound' })).toBe(1);
    expect(grew('voxline_http_requests_total', { method: 'POST', route: '/api/v1/calls', status: '201' })).toBe(1);
    expect(grew('voxline_mail_total', { outcome: 'sent' })).toBe(1);
    await until(async () => valueOf(await scrape(), 'voxline_websocket_connections', { kind: 'media' }) === 0);
  });

  it('counts listening tabs and signalling sockets while they are open', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const tab = await RealtimeTab.listening(wsBase, browser);
    const open = await scrape();
    expect(valueOf(open, 'voxline_listening_tabs')).toBe(1);
    expect(valueOf(open, 'voxline_websocket_connections', { kind: 'realtime' })).toBe(1);
    tab.socket.close();
    await until(async () => {
      const text = await scrape();
      return valueOf(text, 'voxline_listening_tabs') === 0 && valueOf(text, 'voxline_websocket_connections', { kind: 'realtime' }) === 0;
    });
  });

  it('counts requests by route pattern, never the URL, and leaves its own scrapes out', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const callId = '00000000-0000-4000-8000-000000000000';
    expect((await browser.get(`/api/v1/calls/${callId}`)).statusCode).toBe(404);
    expect((await browser.get('/api/v1/no-such-thing?token=secret')).statusCode).toBe(404);
    const text = await scrape();
    expect(valueOf(text, 'voxline_http_requests_total', { method: 'GET', route: '/api/v1/calls/:id', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'voxline_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'voxline_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/calls/:id', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(callId);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('route="/metrics"');
  });

  it('counts each payment once, by outcome', async () => {
    const before = await scrape();
    const { browser } = await newSignedInUser(testApp.app);
    const paid = await startPayment(browser);
    await payAtCheckout(testApp.app, paid.paymentUrl);
    const declined = await startPayment(browser);
    await payAtCheckout(testApp.app, declined.paymentUrl, DECLINED_CARD);
    for (let i = 0; i < 2; i += 1) {
      expect((await browser.post(`/api/v1/payments/${paid.reference}/verify`)).json().verified).toBe(true);
      expect((await browser.post(`/api/v1/payments/${declined.reference}/verify`)).json().status).toBe('failed');
    }
    const after = await scrape();
    expect(valueOf(after, 'voxline_payments_total', { outcome: 'succeeded' }) - valueOf(before, 'voxline_payments_total', { outcome: 'succeeded' })).toBe(1);
    expect(valueOf(after, 'voxline_payments_total', { outcome: 'failed' }) - valueOf(before, 'voxline_payments_total', { outcome: 'failed' })).toBe(1);
  });
});

describe('metrics by default', () => {
  it('are not public: /metrics answers 404 on the main port and no other port opens', async () => {
    const testApp = await buildTestApp({ mailer: capturingMailer() });
    try {
      await testApp.app.ready();
      const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
      expect(testApp.app.metricsAddress()).toBeNull();
    } finally {
      await testApp.close();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics on a port of its own on METRICS_HOST, without a token, until the app closes', async () => {
    const testApp = await buildTestApp({ mailer: capturingMailer(), env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
    let closed = false;
    try {
      await testApp.app.ready();
      const address = testApp.app.metricsAddress();
      expect(address?.address).toBe('127.0.0.1');
      const base = `http://127.0.0.1:${address!.port}`;
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      expect(typesIn(text).get('voxline_nodejs_eventloop_lag_seconds')).toBe('gauge');
      expect(typesIn(text).get('voxline_calls_active')).toBe('gauge');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
      // The main port keeps /metrics to a token, and there is none.
      expect((await testApp.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);

      await testApp.close();
      closed = true;
      expect(testApp.app.metricsAddress()).toBeNull();
      await expect(fetch(`${base}/metrics`)).rejects.toThrow();
    } finally {
      if (!closed) await testApp.close();
    }
  });
});
