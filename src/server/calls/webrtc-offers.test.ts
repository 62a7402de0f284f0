import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/realtime';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { dominantFrequency, rms } from '../../../tests/support/dsp/analysis';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { WebRtcClient } from '../../../tests/support/webrtc-client';
import { calls } from './schema';

// A call's audio over WebRTC through the app (docs/calls.md#media): the offer on the tab's realtime
// socket, the answer back, the leg joined once connected, the transport on the record.
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { echoDelayMs: 0 } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function callerOnTheSoundTestLine() {
  const user = await newSignedInUser(testApp.app);
  const number = await rentANumber(user.browser);
  const tab = await RealtimeTab.open(wsBase, user.browser);
  const placed = (await user.browser.post('/api/v1/calls', { from: number, to: '+14155550100' })).json() as { call: { id: string }; mediaPath: string };
  return { ...user, tab, callId: placed.call.id, mediaPath: placed.mediaPath };
}

/** The next message about `callId` of one of `types`, after message `from`. */
async function reply(tab: RealtimeTab, callId: string, from: number) {
  await until(() => tab.messages.slice(from).some((m) => (m.type === 'media.answer' || m.type === 'error') && m.callId === callId), 10_000);
  return tab.messages.slice(from).find((m) => (m.type === 'media.answer' || m.type === 'error') && m.callId === callId) as Extract<ServerMessage, { type: 'media.answer' | 'error' }>;
}

describe('WebRTC offers', () => {
  it('answers the tab that offered and tells it when the server’s side is up; the tone comes back from the sound-test line and the record says webrtc', async () => {
    const caller = await callerOnTheSoundTestLine();
    const peer = await WebRtcClient.create();
    try {
      const from = caller.tab.messages.length;
      caller.tab.send({ type: 'media.offer', callId: caller.callId, sdp: await peer.offer() });
      const answer = await reply(caller.tab, caller.callId, from);
      expect(answer.type).toBe('media.answer');
      await peer.accept((answer as Extract<ServerMessage, { type: 'media.answer' }>).sdp);
      await peer.connected();
      // The tab hears that the server's side is up too: only then does it take WebRTC over the fallback.
      await until(() => caller.tab.messages.slice(from).some((m) => m.type === 'media.connected' && m.callId === caller.callId), 10_000);
      peer.startTone(440);
      await until(() => peer.heard.length >= 100, 15_000);
      const heard = peer.audio(peer.heard.length - 50);
      expect(rms(heard)).toBeGreaterThan(0.05);
      expect(Math.abs(dominantFrequency(heard, 16_000) - 440)).toBeLessThan(440 * 0.02);
      await until(async () => (await caller.browser.get(`/api/v1/calls/${caller.callId}`)).json().mediaTransport === 'webrtc');
      const [record] = await testApp.database.db.select().from(calls).where(eq(calls.id, caller.callId));
      expect(record!.mediaTransport).toBe('webrtc');
    } finally {
      await peer.close();
    }
    // The browser's audio went away: the call ends as when its media socket drops.
    caller.tab.send({ type: 'call.hangup', callId: caller.callId });
    await until(async () => (await caller.browser.get(`/api/v1/calls/${caller.callId}`)).json().state === 'ended');
    caller.tab.socket.close();
  });

  it('starts its stream to the browser afresh under a new SSRC at a quiet moment when the tab says it plays the audio late', async () => {
    const caller = await callerOnTheSoundTestLine();
    const peer = await WebRtcClient.create();
    try {
      const from = caller.tab.messages.length;
      caller.tab.send({ type: 'media.offer', callId: caller.callId, sdp: await peer.offer() });
      const answer = (await reply(caller.tab, caller.callId, from)) as Extract<ServerMessage, { type: 'media.answer' }>;
      // The answer names no SSRC of ours: a browser takes a new one as the same track's new stream.
      expect(answer.sdp).not.toMatch(/^a=ssrc/m);
      await peer.accept(answer.sdp);
      await peer.connected();
      await until(() => caller.tab.messages.slice(from).some((m) => m.type === 'media.connected' && m.callId === caller.callId), 10_000);
      peer.startTone(440);
      await until(() => peer.heard.length >= 50, 15_000);
      caller.tab.send({ type: 'media.catchUp', callId: caller.callId, bufferedMs: 200 });
      // While the tone goes on there is no quiet frame to restart in: the stream stays as it is.
      const heardAtRequest = peer.heard.length;
      await until(() => peer.heard.length >= heardAtRequest + 25, 15_000);
      expect(peer.ssrcs).toHaveLength(1);

      peer.stopTone();
      peer.startTone(0);
      await until(() => peer.ssrcs.length === 2, 10_000);
      peer.stopTone();
      peer.startTone(440);
      const heardOnNewStream = peer.heard.length;
      await until(() => peer.heard.length >= heardOnNewStream + 60, 15_000);
      expect(Math.abs(dominantFrequency(peer.audio(peer.heard.length - 40), 16_000) - 440)).toBeLessThan(440 * 0.02);
      expect(peer.ssrcs).toHaveLength(2);

      const refusedFrom = caller.tab.messages.length;
      caller.tab.send({ type: 'media.catchUp', callId: caller.callId, bufferedMs: -5 });
      await until(() => caller.tab.messages.slice(refusedFrom).some((m) => m.type === 'error'), 5_000);
      expect(caller.tab.messages.slice(refusedFrom).find((m) => m.type === 'error')).toMatchObject({ message: 'That message is not one Voxline understands' });
      expect(peer.ssrcs).toHaveLength(2);
    } finally {
      await peer.close();
      caller.tab.send({ type: 'call.hangup', callId: caller.callId });
      caller.tab.socket.close();
    }
  });

  it('ends the call as a sign-out when the session that offered ends, though no media socket closes', async () => {
    const caller = await callerOnTheSoundTestLine();
    const peer = await WebRtcClient.create();
    try {
      const from = caller.tab.messages.length;
      caller.tab.send({ type: 'media.offer', callId: caller.callId, sdp: await peer.offer() });
      await peer.accept((await reply(caller.tab, caller.callId, from) as Extract<ServerMessage, { type: 'media.answer' }>).sdp);
      await peer.connected();
      await until(async () => (await caller.browser.get(`/api/v1/calls/${caller.callId}`)).json().mediaTransport === 'webrtc');
      expect((await caller.browser.post('/api/v1/auth/sign-out')).statusCode).toBe(200);
      const record = async () => (await testApp.database.db.select().from(calls).where(eq(calls.id, caller.callId)))[0]!;
      await until(async () => (await record()).state === 'ended');
      expect(await record()).toMatchObject({ outcome: 'completed', reason: 'You were signed out' });
    } finally {
      await peer.close();
    }
  });

  it('refuses an offer for a call that is not the user’s, and one that is not SDP, saying why', async () => {
    const caller = await callerOnTheSoundTestLine();
    const stranger = await newSignedInUser(testApp.app);
    const strangerTab = await RealtimeTab.open(wsBase, stranger.browser);
    const peer = await WebRtcClient.create();
    try {
      const offer = await peer.offer();
      let from = strangerTab.messages.length;
      strangerTab.send({ type: 'media.offer', callId: caller.callId, sdp: offer });
      expect(await reply(strangerTab, caller.callId, from)).toMatchObject({ type: 'error', message: 'No such call in progress' });

      from = caller.tab.messages.length;
      caller.tab.send({ type: 'media.offer', callId: caller.callId, sdp: 'v=0 this is not a session description' });
      const refused = await reply(caller.tab, caller.callId, from);
      expect(refused.type).toBe('error');
      expect((refused as Extract<ServerMessage, { type: 'error' }>).message).toMatch(/SDP|offer/i);
      // Refused offers change nothing: the call still takes its audio.
      expect((await caller.browser.get(`/api/v1/calls/${caller.callId}`)).json()).toMatchObject({ state: 'answered', mediaTransport: null });
    } finally {
      await peer.close();
      caller.tab.send({ type: 'call.hangup', callId: caller.callId });
      caller.tab.socket.close();
      strangerTab.socket.close();
    }
  });

  it('leaves the call’s audio free while the offer has not connected, so the websocket fallback takes it', async () => {
    const caller = await callerOnTheSoundTestLine();
    const peer = await WebRtcClient.create();
    try {
      const from = caller.tab.messages.length;
      caller.tab.send({ type: 'media.offer', callId: caller.callId, sdp: await peer.offer() });
      expect((await reply(caller.tab, caller.callId, from)).type).toBe('media.answer');
      // The browser gives up on WebRTC (say UDP is blocked) without ever taking the answer.
      const media = await MediaClient.connect(`${wsBase}${caller.mediaPath}`, cookieHeader(caller.browser.cookies));
      media.sendTone(440, 16_000);
      await until(() => media.received.length >= 60, 10_000);
      expect(Math.abs(dominantFrequency(media.audio(media.received.length - 40), 16_000) - 440)).toBeLessThan(440 * 0.02);
      await until(async () => (await caller.browser.get(`/api/v1/calls/${caller.callId}`)).json().mediaTransport === 'websocket-pcm');
      media.close();
    } finally {
      await peer.close();
      caller.tab.socket.close();
    }
  });
});

describe('media configuration', () => {
  it('tells a signed-in browser that WebRTC is on, with no ICE servers unless configured', async () => {
    const user = await newSignedInUser(testApp.app);
    const response = await user.browser.get('/api/v1/media/config');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ webrtc: true, iceServers: [] });
  });

  it('hands out STUN as configured and TURN with the user’s own short-lived credentials; with WEBRTC=false, nothing, and offers are refused', async () => {
    const configured = await buildTestApp({
      mailer: capturingMailer(),
      env: { STUN_URLS: 'stun:turn.example.com:3478', TURN_URLS: 'turn:turn.example.com:3478?transport=udp', TURN_SECRET: 'a-long-shared-turn-secret' },
    });
    try {
      const user = await newSignedInUser(configured.app);
      const { iceServers } = (await user.browser.get('/api/v1/media/config')).json() as { iceServers: { urls: string[]; username?: string; credential?: string }[] };
      expect(iceServers).toContainEqual({ urls: ['stun:turn.example.com:3478'] });
      const turn = iceServers.find((server) => server.urls.some((url) => url.startsWith('turn:')));
      expect(turn?.username).toMatch(new RegExp(`^\\d+:${user.userId}$`));
      expect(turn?.credential).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(JSON.stringify(iceServers)).not.toContain('a-long-shared-turn-secret');
    } finally {
      await configured.close();
    }

    const off = await buildTestApp({ mailer: capturingMailer(), env: { WEBRTC: 'false' } });
    try {
      const offWs = (await off.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
      const user = await newSignedInUser(off.app);
      expect((await user.browser.get('/api/v1/media/config')).json()).toEqual({ webrtc: false, iceServers: [] });
      const number = await rentANumber(user.browser);
      const tab = await RealtimeTab.open(offWs, user.browser);
      const placed = (await user.browser.post('/api/v1/calls', { from: number, to: '+14155550100' })).json() as { call: { id: string } };
      const peer = await WebRtcClient.create();
      const from = tab.messages.length;
      tab.send({ type: 'media.offer', callId: placed.call.id, sdp: await peer.offer() });
      expect(await reply(tab, placed.call.id, from)).toMatchObject({ type: 'error', message: 'WebRTC is turned off on this server: connect the call audio over its websocket' });
      await peer.close();
      tab.send({ type: 'call.hangup', callId: placed.call.id });
      tab.socket.close();
    } finally {
      await off.close();
    }
  });
});
