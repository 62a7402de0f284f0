import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dominantFrequency, rms } from '../support/dsp/analysis';
import type { ServerMessage } from '../../src/common/realtime';
import { signedUpWithNumber, type HttpBrowser } from '../support/http-browser';
import { cookieHeader, MediaClient } from '../support/media-client';
import { RealtimeTab } from '../support/realtime-tab';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { createPostgresDatabase } from '../support/test-database';
import { until } from '../support/until';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Voxline as it runs behind a load balancer: separate server processes on their own ports, one
 * PostgreSQL database and one Redis. Any request, signalling tab or media socket may reach any
 * instance; calls live on the instance that placed them.
 */
describe.skipIf(!adminUrl || !redisUrl)('server processes sharing PostgreSQL and Redis', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let env: Record<string, string>;
  let one: ServerProcess;
  let two: ServerProcess;
  const started: ServerProcess[] = [];
  const tabs: RealtimeTab[] = [];
  const media: MediaClient[] = [];

  const start = async () => {
    const server = await startServerProcess(env);
    started.push(server);
    return server;
  };

  beforeAll(async () => {
    database = await createPostgresDatabase(adminUrl!);
    // The browsers' addresses come from the balancer (here: the test on loopback); every instance
    // signs sessions with the same key (docs/deploy.md).
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:3000',
      AUTH_SECRET: randomBytes(32).toString('base64url'),
    };
    [one, two] = await Promise.all([start(), start()]);
  }, 120_000);

  afterAll(async () => {
    for (const tab of tabs) tab.socket.close();
    for (const client of media) client.close();
    await Promise.all(started.map((server) => server.stop()));
    await database?.drop();
  });

  const person = (server: ServerProcess, fullName: string) => signedUpWithNumber(server.url, fullName);

  async function tab(server: ServerProcess, browser: HttpBrowser, listening: boolean) {
    const opened = listening ? await RealtimeTab.listening(server.wsUrl, browser) : await RealtimeTab.open(server.wsUrl, browser);
    tabs.push(opened);
    return opened;
  }

  async function connectMedia(server: ServerProcess, browser: HttpBrowser, callId: string, frequency: number) {
    const client = await MediaClient.connect(`${server.wsUrl}/api/v1/calls/${callId}/media`, cookieHeader(browser.cookies));
    media.push(client);
    client.sendTone(frequency, 16_000);
    return client;
  }

  /** Waits for a message of `type` about `callId` matching `match`, and answers it. */
  async function awaitMessage(on: RealtimeTab, callId: string, match: (message: ServerMessage) => boolean, timeoutMs?: number) {
    const about = () => on.messages.filter((message) => 'callId' in message && message.callId === callId);
    // A timeout says what did come about the call, and what the servers printed.
    await until(() => about().some(match), timeoutMs).catch((error: unknown) => {
      throw new Error(`${String(error)}; messages about ${callId}: ${JSON.stringify(about())}\n${started.flatMap((server) => server.output).join('')}`);
    });
    return about().find(match)!;
  }

  /** Each side hears the other's tone: 440 Hz from the caller, 660 Hz from the callee. */
  async function expectAudioBothWays(caller: MediaClient, callee: MediaClient) {
    const [callerFrom, calleeFrom] = [caller.received.length, callee.received.length];
    await until(() => caller.received.length > callerFrom + 30 && callee.received.length > calleeFrom + 30);
    expect(dominantFrequency(callee.audio(calleeFrom + 5), 16_000)).toBeCloseTo(440, 0);
    expect(dominantFrequency(caller.audio(callerFrom + 5), 16_000)).toBeCloseTo(660, 0);
  }

  /** Bob on `holder` calls Ada, who answers on instance 1: the call and Bob's audio on `holder`, Ada's relayed. */
  async function callHeldOn(holder: ServerProcess) {
    const ada = await person(one, 'Ada Callee');
    const bob = await person(holder, 'Bob Caller');
    const adaOnOne = await tab(one, ada.browser, true);
    const placed = await bob.browser.post(`${holder.url}/api/v1/calls`, { from: bob.number, to: ada.number });
    const incoming = await adaOnOne.next('call.incoming');
    adaOnOne.send({ type: 'call.answer', callId: incoming.callId });
    await awaitMessage(adaOnOne, incoming.callId, (m) => m.type === 'call.state');
    const bobAudio = await connectMedia(holder, bob.browser, placed.body.call.id, 440);
    const adaAudio = await connectMedia(one, ada.browser, incoming.callId, 660);
    await expectAudioBothWays(bobAudio, adaAudio);
    return { ada, bob, adaOnOne, placed, incoming, adaAudio };
  }

  it('rings a callee listening on instance 1 from a call placed on instance 2: answer, audio both ways, mute, hang-up and both records', async () => {
    const ada = await person(one, 'Ada Callee');
    const bob = await person(two, 'Bob Caller');
    const adaOnOne = await tab(one, ada.browser, true);
    const bobOnTwo = await tab(two, bob.browser, false);

    const placed = await bob.browser.post(`${two.url}/api/v1/calls`, { from: bob.number, to: ada.number });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.call.state).toBe('ringing');
    const incoming = await adaOnOne.next('call.incoming');
    expect(incoming).toMatchObject({ from: bob.number, to: ada.number });

    adaOnOne.send({ type: 'call.answer', callId: incoming.callId });
    expect(await awaitMessage(adaOnOne, incoming.callId, (m) => m.type === 'call.state')).toMatchObject({ state: 'answered' });
    await awaitMessage(bobOnTwo, placed.body.call.id, (m) => m.type === 'call.state' && m.state === 'answered');

    // Ada's audio reaches instance 1, the call is on instance 2: relayed over Redis both ways.
    const bobAudio = await connectMedia(two, bob.browser, placed.body.call.id, 440);
    const adaAudio = await connectMedia(one, ada.browser, incoming.callId, 660);
    await expectAudioBothWays(bobAudio, adaAudio);

    adaOnOne.send({ type: 'call.mute', callId: incoming.callId, muted: true });
    await until(() => bobAudio.received.length > 10 && rms(bobAudio.audio(bobAudio.received.length - 10)) === 0);
    adaOnOne.send({ type: 'call.mute', callId: incoming.callId, muted: false });
    await until(() => rms(bobAudio.audio(bobAudio.received.length - 5)) > 0.1);

    // A second's conversation, for a duration to show in both histories.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    adaOnOne.send({ type: 'call.hangup', callId: incoming.callId });
    expect(await awaitMessage(bobOnTwo, placed.body.call.id, (m) => m.type === 'call.ended')).toMatchObject({ outcome: 'completed' });
    expect(await awaitMessage(adaOnOne, incoming.callId, (m) => m.type === 'call.ended')).toMatchObject({ outcome: 'completed' });
    await Promise.all([bobAudio.closed, adaAudio.closed]);

    const [bobsRecord] = (await bob.browser.get(`${one.url}/api/v1/calls`)).body.calls;
    expect(bobsRecord).toMatchObject({ id: placed.body.call.id, direction: 'outbound', to: ada.number, state: 'ended', outcome: 'completed' });
    expect(bobsRecord.durationSec).toBeGreaterThanOrEqual(1);
    const [adasRecord] = (await ada.browser.get(`${two.url}/api/v1/calls`)).body.calls;
    expect(adasRecord).toMatchObject({ id: incoming.callId, direction: 'inbound', from: bob.number, state: 'ended', outcome: 'completed' });
    expect(adasRecord.durationSec).toBeGreaterThanOrEqual(1);
  });

  it('gives the call to one tab only when the callee answers in two tabs on different instances at once', async () => {
    const ada = await person(one, 'Ada Two Tabs');
    const bob = await person(two, 'Bob Caller');
    const adaTabs = [await tab(one, ada.browser, true), await tab(two, ada.browser, true)];
    const placed = await bob.browser.post(`${two.url}/api/v1/calls`, { from: bob.number, to: ada.number });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const incoming = await adaTabs[0]!.next('call.incoming');
    expect((await adaTabs[1]!.next('call.incoming')).callId).toBe(incoming.callId);

    for (const adaTab of adaTabs) adaTab.send({ type: 'call.answer', callId: incoming.callId });
    const outcomes = await Promise.all(adaTabs.map((adaTab) => awaitMessage(adaTab, incoming.callId, (m) => m.type === 'error' || (m.type === 'call.state' && m.state === 'answered'))));
    const winners = outcomes.filter((message) => message.type === 'call.state');
    expect(winners).toHaveLength(1);
    expect(outcomes.find((message) => message.type === 'error')).toMatchObject({ message: 'This call was answered in another tab' });
    const winner = outcomes[0]!.type === 'call.state' ? 0 : 1;
    const loser = adaTabs[1 - winner]!;
    expect(await awaitMessage(loser, incoming.callId, (m) => m.type === 'call.ended')).toMatchObject({ reason: 'Answered in another tab' });

    // Behind a balancer without sticky sessions the caller's audio may reach the other instance too.
    const bobAudio = await connectMedia(one, bob.browser, placed.body.call.id, 440);
    const adaAudio = await connectMedia(winner === 0 ? one : two, ada.browser, incoming.callId, 660);
    await expectAudioBothWays(bobAudio, adaAudio);
    // Only one tab's audio joins the call.
    const second = await MediaClient.connect(`${(winner === 0 ? two : one).wsUrl}/api/v1/calls/${incoming.callId}/media`, cookieHeader(ada.browser.cookies));
    expect(await second.closed).toBe(4409);

    const hungUp = await bob.browser.post(`${one.url}/api/v1/calls/${placed.body.call.id}/hangup`);
    expect(hungUp.status, JSON.stringify(hungUp.body)).toBe(200);
    expect(hungUp.body).toMatchObject({ direction: 'outbound', state: 'ended', outcome: 'completed' });
    expect(await awaitMessage(adaTabs[winner]!, incoming.callId, (m) => m.type === 'call.ended')).toMatchObject({ outcome: 'completed' });
    await Promise.all([bobAudio.closed, adaAudio.closed]);
  });

  it('ends its calls cleanly when the instance holding them stops (SIGTERM), telling the other side on another instance', async () => {
    const three = await start();
    const { ada, bob, adaOnOne, placed, incoming, adaAudio } = await callHeldOn(three);

    expect(await three.stop('SIGTERM')).toBe(0);
    expect(await awaitMessage(adaOnOne, incoming.callId, (m) => m.type === 'call.ended')).toMatchObject({ outcome: 'completed', reason: 'The server is shutting down' });
    await adaAudio.closed;
    const [adasRecord] = (await ada.browser.get(`${one.url}/api/v1/calls`)).body.calls;
    expect(adasRecord).toMatchObject({ id: incoming.callId, state: 'ended', outcome: 'completed' });
    const [bobsRecord] = (await bob.browser.get(`${two.url}/api/v1/calls`)).body.calls;
    expect(bobsRecord).toMatchObject({ id: placed.body.call.id, state: 'ended', outcome: 'completed', reason: 'The server is shutting down' });
  });

  it('leaves no call of a killed instance open: the others close its records within 60 s and tell the callee', async () => {
    const four = await start();
    const { ada, bob, adaOnOne, placed, incoming, adaAudio } = await callHeldOn(four);

    // No goodbye: the instance holding the call stops beating in the database, and the survivors'
    // sweep (every 10 s, for instances silent 30 s) finds its open records.
    const killedAt = Date.now();
    expect(await four.stop('SIGKILL')).toBeNull();
    const ended = await awaitMessage(adaOnOne, incoming.callId, (m) => m.type === 'call.ended', 70_000);
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(ended).toMatchObject({ outcome: 'failed', reason: 'The call was cut off when its server stopped' });
    // Ada's audio was relayed to the killed instance: her media socket is closed too.
    expect(await adaAudio.closed).toBe(1011);
    const [adasRecord] = (await ada.browser.get(`${two.url}/api/v1/calls`)).body.calls;
    expect(adasRecord).toMatchObject({ id: incoming.callId, state: 'ended', outcome: 'failed' });
    const [bobsRecord] = (await bob.browser.get(`${one.url}/api/v1/calls`)).body.calls;
    expect(bobsRecord).toMatchObject({ id: placed.body.call.id, state: 'ended', outcome: 'failed', reason: 'The call was cut off when its server stopped' });
  }, 120_000);
});
