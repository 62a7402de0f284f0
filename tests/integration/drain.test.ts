import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Draining } from '../../src/server/health/draining';
import { serverInstances } from '../../src/server/instances/schema';
import { newSignedInUser, rentANumber } from '../support/accounts';
import { signedUpWithNumber, type HttpBrowser } from '../support/http-browser';
import { cookieHeader, MediaClient } from '../support/media-client';
import { RealtimeTab } from '../support/realtime-tab';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { buildTestApp, type TestApp } from '../support/test-app';
import { capturingMailer } from '../support/test-browser';
import { until } from '../support/until';

const RESTARTING = 'This server is restarting. Try your call again in a moment.';

/**
 * The drain (docs/deploy.md#draining) of Voxline as `npm start` runs it: a process of its own on
 * the embedded database, sent SIGTERM with a call up.
 */
describe('a server draining on SIGTERM', () => {
  const dirs: string[] = [];
  const tabs: RealtimeTab[] = [];
  const media: MediaClient[] = [];
  let draining: ServerProcess;
  let stopped: ServerProcess;

  /** A server whose drain would outlast the test: only the end of its calls, or a second signal, stops it. */
  const start = () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-drain-'));
    dirs.push(dataDir);
    return startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3000', DRAIN_SECONDS: '900', WEBRTC: 'false' });
  };

  beforeAll(async () => {
    [draining, stopped] = await Promise.all([start(), start()]);
  }, 120_000);

  afterAll(async () => {
    for (const tab of tabs) tab.socket.close();
    for (const client of media) client.close();
    await Promise.all([draining, stopped].map((server) => server?.stop('SIGKILL')));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Someone signed up through the API, renting a number. */
  const person = (server: ServerProcess) => signedUpWithNumber(server.url, 'Drain Test');

  async function tab(server: ServerProcess, browser: HttpBrowser, listening: boolean) {
    const opened = listening ? await RealtimeTab.listening(server.wsUrl, browser) : await RealtimeTab.open(server.wsUrl, browser);
    tabs.push(opened);
    return opened;
  }

  /** A call to the sound-test line, its audio flowing: a 440 Hz tone out, its echo back. */
  async function soundTestCall(server: ServerProcess) {
    const caller = await person(server);
    const { soundTestNumber } = (await caller.browser.get(`${server.url}/api/v1/calls/lines`)).body as { soundTestNumber: string };
    const placed = await caller.browser.post(`${server.url}/api/v1/calls`, { from: caller.number, to: soundTestNumber });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const callId = placed.body.call.id as string;
    const audio = await MediaClient.connect(`${server.wsUrl}/api/v1/calls/${callId}/media`, cookieHeader(caller.browser.cookies));
    media.push(audio);
    audio.sendTone(440, 16_000);
    await echoFlows(audio);
    return { caller, callId, audio };
  }

  /** Half a second more of the echo arrives. */
  const echoFlows = (audio: MediaClient) => {
    const from = audio.received.length;
    return until(() => audio.received.length > from + 25);
  };

  const readiness = async (server: ServerProcess) => {
    const answer = await fetch(`${server.url}/api/v1/health/ready`);
    return { status: answer.status, body: (await answer.json()) as { ready: boolean; checks: Record<string, string> } };
  };

  /** Waits until the server has begun to drain: its readiness says so. */
  const drainBegan = (server: ServerProcess) => until(async () => (await readiness(server)).body.checks.draining === 'shutting down');

  it('keeps its call up and its audio flowing, refuses new calls and listening tabs, and exits 0 once the call ends', async () => {
    const { caller, callId, audio } = await soundTestCall(draining);
    const other = await person(draining);
    const listening = await tab(draining, other.browser, true);

    const exited = draining.stop('SIGTERM');
    await drainBegan(draining);
    expect(await readiness(draining)).toEqual({ status: 503, body: { ready: false, checks: expect.objectContaining({ database: 'ok', draining: 'shutting down' }) } });
    await listening.next('server.draining');

    // The call goes on.
    await echoFlows(audio);
    expect(audio.closeCode).toBeNull();

    // A new call is refused with when to try again: the browser tries once more, which a balancer
    // sends to a ready instance; alone, this one refuses that too.
    const refused = await fetch(`${draining.url}/api/v1/calls`, {
      method: 'POST',
      headers: { cookie: cookieHeader(other.browser.cookies), origin: 'http://localhost:3000', 'content-type': 'application/json' },
      body: JSON.stringify({ from: other.number, to: '+14155550100' }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toEqual({ error: { code: 'server_draining', message: RESTARTING } });

    // A tab that comes back here (the only instance) is sent on again rather than listening.
    const again = await tab(draining, other.browser, false);
    again.send({ type: 'receiver.start' });
    await again.next('server.draining');
    expect(again.messages.filter((message) => message.type === 'receiver.state')).toEqual([]);

    await echoFlows(audio);
    const hungUp = await caller.browser.post(`${draining.url}/api/v1/calls/${callId}/hangup`);
    expect(hungUp.status).toBe(200);
    expect(hungUp.body).toMatchObject({ state: 'ended', outcome: 'completed' });
    expect(await exited).toBe(0);
  });

  it('exits at once on a second SIGTERM, ending the call cleanly', async () => {
    const { caller, callId, audio } = await soundTestCall(stopped);
    const callerTab = await tab(stopped, caller.browser, false);

    const exited = stopped.stop('SIGTERM');
    await drainBegan(stopped);
    await echoFlows(audio);

    void stopped.stop('SIGTERM');
    expect(await exited).toBe(0);
    // What the server sent before it went is read by now.
    await new Promise((resolve) => (callerTab.socket.readyState === callerTab.socket.CLOSED ? resolve(null) : callerTab.socket.once('close', resolve)));
    expect(callerTab.messages).toContainEqual({ type: 'call.ended', callId, outcome: 'completed', durationSec: expect.any(Number), reason: 'The server is shutting down' });
    await audio.closed;
    expect(audio.closeReason).toBe('The server is shutting down');
  });
});

const shared = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);

/** Two instances behind a balancer, one of them draining: what it no longer takes goes to the other. */
describe.skipIf(!shared)('an instance draining beside another, sharing PostgreSQL and Redis', () => {
  const drain = new Draining();
  let draining: TestApp;
  let ready: TestApp;
  let wsDraining: string;
  let wsReady: string;

  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    draining = await buildTestApp({ env, mailer: capturingMailer(), draining: drain });
    ready = await buildTestApp({ env, mailer: capturingMailer(), database: draining.database });
    wsDraining = (await draining.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    wsReady = (await ready.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  afterAll(async () => {
    await ready?.close();
    await draining?.close();
  });

  it('sends its listening tabs and new calls to the other instance, keeps its call up, and shows as draining in the list', async () => {
    const ada = await newSignedInUser(draining.app, 'Ada Caller');
    const adaNumber = await rentANumber(ada.browser);
    const placed = await ada.browser.post('/api/v1/calls', { from: adaNumber, to: draining.config.SOUND_TEST_NUMBER });
    expect(placed.statusCode, placed.body).toBe(201);
    const audio = await MediaClient.connect(`${wsDraining}${placed.json().mediaPath}`, cookieHeader(ada.browser.cookies));
    audio.sendTone(440, 16_000);
    await until(() => audio.received.length > 25);
    const cy = await newSignedInUser(draining.app, 'Cy Listener');
    const cyNumber = await rentANumber(cy.browser);
    const cyOnDraining = await RealtimeTab.listening(wsDraining, cy.browser);

    drain.begin();
    await cyOnDraining.next('server.draining');
    cyOnDraining.socket.close();
    // The browser reconnects through the same address; the balancer sends it to the ready instance.
    const cyOnReady = await RealtimeTab.listening(wsReady, cy.browser);
    const instances = await draining.database.db.select().from(serverInstances);
    expect(instances).toHaveLength(2);
    await until(async () => (await draining.database.db.select().from(serverInstances).where(isNotNull(serverInstances.drainingSince))).length === 1);
    expect((await draining.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).statusCode).toBe(503);
    expect((await ready.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).statusCode).toBe(200);

    // A call to Cy placed through the draining instance is refused; tried again through the ready one, it rings Cy there.
    const bob = await newSignedInUser(ready.app, 'Bob Caller');
    const bobNumber = await rentANumber(bob.browser);
    const onDraining = await draining.app.inject({ method: 'POST', url: '/api/v1/calls', headers: { cookie: cookieHeader(bob.browser.cookies), origin: 'http://localhost:3000' }, payload: { from: bobNumber, to: cyNumber } });
    expect(onDraining.statusCode).toBe(503);
    expect(onDraining.json().error.code).toBe('server_draining');
    const onReady = await bob.browser.post('/api/v1/calls', { from: bobNumber, to: cyNumber });
    expect(onReady.statusCode, onReady.body).toBe(201);
    expect(onReady.json().call.state).toBe('ringing');
    expect(await cyOnReady.next('call.incoming')).toMatchObject({ from: bobNumber, to: cyNumber });
    await bob.browser.post(`/api/v1/calls/${onReady.json().call.id}/hangup`);

    // Ada's call carries on where it is, and the drain is over when she hangs up.
    const before = audio.received.length;
    await until(() => audio.received.length > before + 25);
    expect(drain.callsInProgress).toBe(1);
    await ada.browser.post(`/api/v1/calls/${placed.json().call.id}/hangup`);
    expect(drain.callsInProgress).toBe(0);
    cyOnReady.socket.close();
    audio.close();
  });
});
