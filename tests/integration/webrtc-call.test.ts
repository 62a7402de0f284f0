import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MediaOfferError, WebRtcEndpoint } from '../../src/server/media/webrtc/webrtc-endpoint';
import type { WebRtcLeg } from '../../src/server/media/webrtc/webrtc-leg';
import { dominantFrequency } from '../support/dsp/analysis';
import { joinFrames, toneFrames } from '../support/dsp/tone-frames';
import { stunCheck } from '../support/stun-request';
import { until } from '../support/until';
import { WebRtcClient } from '../support/webrtc-client';

/**
 * The server's WebRTC endpoint and a werift peer standing in for a browser, over this machine's
 * own addresses: audio both ways, a refused offer, a stranger's junk at the call's port, a peer
 * that vanishes, and the ports given back at shutdown.
 */

const PORTS: [number, number] = [42_000, 42_019];

const warnings: string[] = [];
const log = { warn: (_: object, msg: string) => warnings.push(msg), info: () => {} };
const open: { endpoint?: WebRtcEndpoint; clients: WebRtcClient[] } = { clients: [] };

afterEach(async () => {
  await Promise.all(open.clients.map((client) => client.close()));
  open.clients = [];
  await open.endpoint?.close();
  open.endpoint = undefined;
  warnings.length = 0;
});

function endpoint(settings: Partial<ConstructorParameters<typeof WebRtcEndpoint>[0]> = {}) {
  open.endpoint = new WebRtcEndpoint({ portRange: PORTS, publicAddress: null, ...settings });
  return open.endpoint;
}

/** A client whose offer the endpoint answered, connected, its leg's frames gathered. */
async function connectedCall(server: WebRtcEndpoint) {
  const client = await WebRtcClient.create();
  open.clients.push(client);
  const { sdp, leg } = await server.answer(await client.offer(), { lowData: false, log });
  const frames: Int16Array[] = [];
  leg.onFrame((frame) => frames.push(frame.slice()));
  let connected = false;
  leg.onConnected(() => (connected = true));
  await client.accept(sdp);
  await until(() => connected);
  return { client, leg, frames, answer: sdp };
}

/** The UDP ports the answer's candidates name. */
const candidatePorts = (answer: string) => [...answer.matchAll(/^a=candidate:\S+ 1 udp \d+ \S+ (\d+) typ host/gm)].map((match) => Number(match[1]));

const heardFrequency = (frames: Int16Array[]) => dominantFrequency(joinFrames(frames.slice(-25)), 16_000);

/** Sends the leg a tone at real-time pace until stopped. */
function sendTone(leg: WebRtcLeg, frequency: number) {
  const frames = toneFrames(frequency, 16_000, 50);
  let next = 0;
  const timer = setInterval(() => {
    leg.send(frames[next]!);
    next = (next + 1) % frames.length;
  }, 20);
  return () => clearInterval(timer);
}

describe('a WebRTC call between the server and a browser-like peer', () => {
  it('carries a 440 Hz tone from the peer to the leg, and one from the leg to the peer', async () => {
    const { client, leg, frames } = await connectedCall(endpoint());
    client.startTone(440);
    const stop = sendTone(leg, 660);
    await until(() => frames.length >= 50 && client.heard.length >= 50);
    stop();
    expect(heardFrequency(frames)).toBeCloseTo(440, 0);
    expect(heardFrequency(client.heard)).toBeCloseTo(660, 0);
    expect(leg.stats.malformed).toBe(0);
    expect(leg.stats.packetsOut).toBeGreaterThanOrEqual(50);
  });

  it('connects through the public address it announces, and that one alone', async () => {
    // Loopback is never among the host's own candidates, so the call can only have come in through it.
    const { client, frames, answer } = await connectedCall(endpoint({ publicAddress: '127.0.0.1' }));
    expect(answer.match(/^a=candidate:.*$/gm)).toEqual([expect.stringMatching(/ 127\.0\.0\.1 \d+ typ host /)]);
    client.startTone(440);
    await until(() => frames.length >= 25);
    expect(heardFrequency(frames)).toBeCloseTo(440, 0);
  });

  it('refuses a bad offer with MediaOfferError and logs it', async () => {
    const server = endpoint();
    await expect(server.answer('v=0\r\nthis is not SDP', { lowData: false, log })).rejects.toThrow(MediaOfferError);
    const client = await WebRtcClient.create();
    open.clients.push(client);
    const videoOnly = (await client.offer()).replace('m=audio', 'm=video');
    await expect(server.answer(videoOnly, { lowData: false, log })).rejects.toThrow('The browser offered no audio');
    expect(warnings).toEqual(['WebRTC offer refused', 'WebRTC offer refused']);
    expect(server.openPeers).toBe(0);
  });

  it("keeps a call's audio flowing while a stranger sends junk to its port", async () => {
    const { client, leg, frames, answer } = await connectedCall(endpoint());
    client.startTone(440);
    await until(() => frames.length >= 10);
    const stranger = dgram.createSocket('udp4');
    const replies: Buffer[] = [];
    stranger.on('message', (message) => replies.push(message));
    const junk = strangersJunk();
    for (let round = 0; round < 20; round += 1) {
      for (const port of candidatePorts(answer)) for (const datagram of junk) stranger.send(datagram, port, '127.0.0.1');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = frames.length;
    await until(() => frames.length >= before + 50);
    stranger.close();
    expect(heardFrequency(frames)).toBeCloseTo(440, 0);
    expect(leg.isClosed).toBe(false);
    // Not even a STUN response: werift alone would answer an unsigned check, and check the stranger back.
    expect(replies).toEqual([]);
    expect(warnings).toEqual(['refused unauthenticated traffic at a WebRTC port']);
  });

  it('drops the garbage a connected peer puts in its own stream, and plays on', async () => {
    const { client, leg, frames } = await connectedCall(endpoint());
    client.startTone(440);
    await until(() => frames.length >= 10);
    // Too long for Opus, not Opus (as the codec's own test shows), and nothing at all.
    for (const garbage of [Buffer.alloc(1_400, 0x78), Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]), Buffer.alloc(0)]) client.sendPayload(garbage);
    const before = frames.length;
    await until(() => frames.length >= before + 25);
    expect(leg.stats.malformed).toBe(3);
    expect(heardFrequency(frames)).toBeCloseTo(440, 0);
  });

  it('closes the leg within the disconnect timeout when the peer vanishes without a word', async () => {
    const { client, leg } = await connectedCall(endpoint({ disconnectTimeoutMs: 1_000 }));
    client.startTone(440);
    const reasons: string[] = [];
    leg.onClose((reason) => reasons.push(reason));
    await until(() => leg.stats.packetsIn >= 10);
    await client.vanish();
    await until(() => reasons.length > 0, 3_000);
    expect(reasons).toEqual(['The connection to your browser was lost']);
  });

  it('gives its UDP ports back when it closes', async () => {
    const server = endpoint();
    const { answer } = await connectedCall(server);
    const ports = candidatePorts(answer);
    expect(ports.length).toBeGreaterThan(0);
    await server.close();
    expect(server.openPeers).toBe(0);
    for (const port of ports) {
      const socket = dgram.createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(port, resolve);
      });
      socket.close();
    }
  });
});

/** Datagrams a stranger might send: random bytes, STUN checks it cannot sign, DTLS records, RTP and RTCP. */
function strangersJunk(): Buffer[] {
  const dtls = (contentType: number, epoch: number, body: Buffer) => {
    const header = Buffer.alloc(13);
    header.writeUInt8(contentType, 0);
    header.writeUInt16BE(0xfefd, 1);
    header.writeUInt16BE(epoch, 3);
    header.writeUInt16BE(body.length, 11);
    return Buffer.concat([header, body]);
  };
  return [
    randomBytes(1),
    randomBytes(200),
    randomBytes(1400),
    stunCheck({}),
    stunCheck({ username: 'abcd:efgh' }),
    stunCheck({ username: 'abcd:efgh', password: 'not-the-password' }),
    dtls(21, 0, Buffer.from([2, 40])), // a fatal alert, in the clear
    dtls(21, 1, randomBytes(40)), // an alert claiming the encrypted epoch
    dtls(22, 0, Buffer.concat([Buffer.from([1, 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 60]), randomBytes(60)])), // a ClientHello
    dtls(23, 1, randomBytes(120)), // application data
    Buffer.concat([Buffer.from([0x80, 111, 0x12, 0x34]), randomBytes(160)]), // RTP
    Buffer.concat([Buffer.from([0x81, 200, 0x00, 0x0c]), randomBytes(48)]), // RTCP
  ];
}
