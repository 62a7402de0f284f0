import { describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import type { TestApp } from '../../../tests/support/test-app';
import { canShareInstances, twoInstances } from '../../../tests/support/two-instances';
import { until } from '../../../tests/support/until';

const TOKEN = 'metrics-test-token-0123456789abcdef';

/** The sample `name{labels}`'s value in Prometheus's text format, 0 when absent. */
function valueOf(text: string, sample: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : 0;
}

/** Two instances sharing one PostgreSQL database and one Redis: a call held by one, its browser's socket by the other. */
describe.skipIf(!canShareInstances)('metrics across instances', () => {
  const instances = twoInstances({ listening: 'two', env: { METRICS_TOKEN: TOKEN }, callTiming: { echoDelayMs: 0 } });
  const scrape = async (testApp: TestApp) => (await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('counts relayed frames on both sides, and the bus lag between them', async () => {
    const caller = await newSignedInUser(instances.one.app);
    const number = await rentANumber(caller.browser);
    const placed = await caller.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const media = await MediaClient.connect(`${instances.ws}${placed.json().mediaPath}`, cookieHeader(caller.browser.cookies));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 60, 10_000);

    const holder = await scrape(instances.one);
    const relaying = await scrape(instances.two);
    expect(valueOf(holder, 'voxline_calls_active{direction="outbound",state="answered"}')).toBe(1);
    expect(valueOf(relaying, 'voxline_calls_active{direction="outbound",state="answered"}')).toBe(0);
    expect(valueOf(holder, 'voxline_media_frames_total{transport="relay",direction="in"}')).toBeGreaterThanOrEqual(60);
    expect(valueOf(holder, 'voxline_media_frames_total{transport="relay",direction="out"}')).toBeGreaterThanOrEqual(60);
    expect(valueOf(relaying, 'voxline_media_frames_total{transport="websocket-pcm",direction="in"}')).toBeGreaterThanOrEqual(60);
    expect(valueOf(relaying, 'voxline_media_frames_total{transport="websocket-pcm",direction="out"}')).toBeGreaterThanOrEqual(60);
    expect(valueOf(relaying, 'voxline_websocket_connections{kind="media"}')).toBe(1);
    // Each instance publishes its clock once a second; the other observes it.
    await until(async () => valueOf(await scrape(instances.one), 'voxline_bus_lag_seconds_count') >= 1 && valueOf(await scrape(instances.two), 'voxline_bus_lag_seconds_count') >= 1);
    media.close();
    await until(async () => valueOf(await scrape(instances.one), 'voxline_calls_active{direction="outbound",state="answered"}') === 0);
  });
});
