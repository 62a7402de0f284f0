import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_MS } from '../../src/common/calls';
import { OPUS_SAMPLE_RATE } from '../../src/common/media';
import { float32ToInt16 } from '../../src/dsp/pcm';
import { iceServersFor } from '../../src/server/media/webrtc/ice-servers';
import { WebRtcEndpoint } from '../../src/server/media/webrtc/webrtc-endpoint';
import { COULD_NOT_CONNECT } from '../../src/server/media/webrtc/webrtc-leg';
import { startCoturn, turnserverInstalled, type Coturn } from '../support/coturn';
import { dominantFrequency, sine } from '../support/dsp/analysis';
import { until } from '../support/until';
import { WebRtcClient } from '../support/webrtc-client';

const installed = turnserverInstalled();
if (!installed) console.warn('TURN relay test skipped: turnserver is not installed (Debian package coturn; scripts/ensure-coturn.mjs installs it)');

const SECRET = 'voxline-turn-test-secret';
const CONNECT_TIMEOUT_MS = 2_000;
const FRAME_SAMPLES = (OPUS_SAMPLE_RATE / 1000) * FRAME_MS;
const silentLog = { info: () => {}, warn: () => {} };

/** Plays a tone to the leg's browser at real-time pace, as the bridge would; returns the stop. */
function playTone(leg: { send(frame: Int16Array): void }, frequency: number) {
  let index = 0;
  const timer = setInterval(() => {
    const phase = (2 * Math.PI * frequency * index * FRAME_SAMPLES) / OPUS_SAMPLE_RATE;
    index += 1;
    leg.send(float32ToInt16(sine(frequency, OPUS_SAMPLE_RATE, FRAME_SAMPLES, 0.5, phase)));
  }, FRAME_MS);
  return () => clearInterval(timer);
}

function toFloat(frames: Int16Array[]) {
  return Float32Array.from(frames.flatMap((frame) => Array.from(frame, (sample) => sample / 32768)));
}

/**
 * A browser that may only use the TURN relay (iceTransportPolicy 'relay', as behind a network that
 * lets no UDP through to the server) calls the server's WebRTC endpoint with the credentials
 * iceServersFor hands out, so the audio can only flow through coturn.
 */
describe.skipIf(!installed)("a call's audio through a TURN relay (coturn)", () => {
  let coturn: Coturn;
  let endpoint: WebRtcEndpoint;

  beforeAll(async () => {
    coturn = await startCoturn({ secret: SECRET, tls: true });
    // coturn lets in only packets from the leg's announced addresses (the peer's permissions), and
    // the leg's packets to the relay on 127.0.0.1 leave from 127.0.0.1: it must announce that.
    endpoint = new WebRtcEndpoint({ portRange: null, publicAddress: '127.0.0.1', connectTimeoutMs: CONNECT_TIMEOUT_MS });
  });
  afterAll(async () => {
    await endpoint?.close();
    await coturn?.stop();
  });

  async function relayedPeer(turnUrl: string, turnSecret = SECRET) {
    const iceServers = iceServersFor('user-1', { stunUrls: [], turnUrls: [turnUrl], turnSecret }, new Date());
    return WebRtcClient.create({ iceServers, iceTransportPolicy: 'relay', turnCertificate: coturn.certificate ?? undefined });
  }

  it.each([
    ['UDP', () => coturn.turnUrl],
    ['TCP, the way through where UDP is blocked', () => coturn.turnTcpUrl],
    ['TLS (turns:)', () => coturn.turnsUrl!],
  ])('carries a tone each way over TURN on %s', async (_, turnUrl) => {
    const peer = await relayedPeer(turnUrl());
    let stopTone = () => {};
    try {
      const offer = await peer.offer();
      const candidates = offer.split('\r\n').filter((line) => line.startsWith('a=candidate:'));
      expect(candidates.length, coturn.output.join('')).toBeGreaterThan(0);
      expect(candidates.every((line) => line.includes(' typ relay '))).toBe(true);

      const { sdp, leg } = await endpoint.answer(offer, { lowData: false, log: silentLog });
      const heard: Int16Array[] = [];
      let connected = false;
      leg.onConnected(() => (connected = true));
      leg.onFrame((frame) => heard.push(frame.slice()));
      await peer.accept(sdp);
      await peer.connected();
      await until(() => connected);

      peer.startTone(440);
      stopTone = playTone(leg, 660);
      await until(() => heard.length >= 60 && peer.heard.length >= 60, 10_000);
      expect(Math.abs(dominantFrequency(toFloat(heard.slice(-40)), OPUS_SAMPLE_RATE) - 440)).toBeLessThan(440 * 0.02);
      expect(Math.abs(dominantFrequency(peer.audio(peer.heard.length - 40), OPUS_SAMPLE_RATE) - 660)).toBeLessThan(660 * 0.02);
      leg.close('test over');
    } finally {
      stopTone();
      await peer.close();
    }
  });

  it('never connects with credentials from a wrong secret: the leg closes at its connect timeout', async () => {
    const peer = await relayedPeer(coturn.turnTcpUrl, `${SECRET}-but-wrong`);
    try {
      const offer = await peer.offer();
      expect(offer).not.toContain(' typ relay ');
      const { sdp, leg } = await endpoint.answer(offer, { lowData: false, log: silentLog });
      let connected = false;
      let closedBecause: string | null = null;
      leg.onConnected(() => (connected = true));
      leg.onClose((reason) => (closedBecause = reason));
      await peer.accept(sdp);
      await until(() => closedBecause !== null, CONNECT_TIMEOUT_MS + 5_000);
      expect(closedBecause).toBe(COULD_NOT_CONNECT);
      expect(connected).toBe(false);
      expect(peer.connection.connectionState).not.toBe('connected');
    } finally {
      await peer.close();
    }
  });
});
