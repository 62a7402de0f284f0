import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/common/realtime';
import { newSignedInUser, rentANumber } from '../support/accounts';
import { dominantFrequency } from '../support/dsp/analysis';
import { RealtimeTab } from '../support/realtime-tab';
import { canShareInstances, twoInstances } from '../support/two-instances';
import { until } from '../support/until';
import { WebRtcClient } from '../support/webrtc-client';

/**
 * A tab's realtime socket on one instance, its call held by the other: the offer goes to the
 * holder, whose answer carries its own candidates, so the audio reaches the holder directly; the
 * holder's word that its side is up comes back to the tab through the other instance, and the
 * tab's media.catchUp goes to the holder's leg (docs/calls.md#catching-up).
 */
describe.skipIf(!canShareInstances)('WebRTC audio for a call another instance holds', () => {
  const instances = twoInstances({ listening: 'one', callTiming: { echoDelayMs: 0 } });

  it('answers through the instance holding the call, says so when its side is up, the sound-test line echoes the tone, and a catch-up reaches the holder', async () => {
    const ada = await newSignedInUser(instances.two.app, 'Ada Across');
    const number = await rentANumber(ada.browser);
    const placed = await ada.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const callId = (placed.json() as { call: { id: string } }).call.id;
    const tab = await RealtimeTab.open(instances.ws, ada.browser);
    const peer = await WebRtcClient.create();
    try {
      tab.send({ type: 'media.offer', callId, sdp: await peer.offer() });
      const answer = await tab.next('media.answer');
      expect(answer.callId).toBe(callId);
      await peer.accept((answer as Extract<ServerMessage, { type: 'media.answer' }>).sdp);
      await peer.connected();
      // From the holder, through the other instance, to the tab that offered.
      expect(await tab.next('media.connected')).toMatchObject({ callId });
      peer.startTone(330);
      await until(() => peer.heard.length >= 80, 15_000);
      expect(Math.abs(dominantFrequency(peer.audio(peer.heard.length - 40), 16_000) - 330)).toBeLessThan(330 * 0.02);
      // The tab's word that it plays the audio late reaches the holder's leg too: a new stream, in a pause.
      tab.send({ type: 'media.catchUp', callId, bufferedMs: 100 });
      peer.stopTone();
      peer.startTone(0);
      await until(() => peer.ssrcs.length === 2, 10_000);
      tab.send({ type: 'call.hangup', callId });
      await until(async () => (await ada.browser.get(`/api/v1/calls/${callId}`)).json().state === 'ended');
    } finally {
      await peer.close();
      tab.socket.close();
    }
  });
});
