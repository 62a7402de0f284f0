import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/common/realtime';
import { newSignedInUser, rentANumber } from '../support/accounts';
import { dominantFrequency } from '../support/dsp/analysis';
import { RealtimeTab } from '../support/realtime-tab';
import { buildTestApp, type TestApp } from '../support/test-app';
import { capturingMailer } from '../support/test-browser';
import { until } from '../support/until';
import { WebRtcClient } from '../support/webrtc-client';

const shared = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);

/**
 * A tab's realtime socket on one instance, its call held by the other: the offer goes to the
 * holder, whose answer carries its own candidates, so the audio reaches the holder directly.
 */
describe.skipIf(!shared)('WebRTC audio for a call another instance holds', () => {
  let one: TestApp;
  let two: TestApp;
  let wsOne: string;

  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    one = await buildTestApp({ env, mailer: capturingMailer(), callTiming: { echoDelayMs: 0 } });
    two = await buildTestApp({ env, mailer: capturingMailer(), callTiming: { echoDelayMs: 0 }, database: one.database });
    wsOne = (await one.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    await two.app.ready();
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('answers through the instance holding the call, and the sound-test line echoes the tone', async () => {
    const ada = await newSignedInUser(two.app, 'Ada Across');
    const number = await rentANumber(ada.browser);
    const placed = await ada.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const callId = (placed.json() as { call: { id: string } }).call.id;
    const tab = await RealtimeTab.open(wsOne, ada.browser);
    const peer = await WebRtcClient.create();
    try {
      tab.send({ type: 'media.offer', callId, sdp: await peer.offer() });
      const answer = await tab.next('media.answer');
      expect(answer.callId).toBe(callId);
      await peer.accept((answer as Extract<ServerMessage, { type: 'media.answer' }>).sdp);
      await peer.connected();
      peer.startTone(330);
      await until(() => peer.heard.length >= 80, 15_000);
      expect(Math.abs(dominantFrequency(peer.audio(peer.heard.length - 40), 16_000) - 330)).toBeLessThan(330 * 0.02);
      tab.send({ type: 'call.hangup', callId });
      await until(async () => (await ada.browser.get(`/api/v1/calls/${callId}`)).json().state === 'ended');
    } finally {
      await peer.close();
      tab.socket.close();
    }
  });
});
