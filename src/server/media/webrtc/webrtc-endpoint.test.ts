import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../../../tests/support/until';
import { WebRtcClient } from '../../../../tests/support/webrtc-client';
import { OPUS_BITRATE, OPUS_LOW_DATA_BITRATE } from '../../../common/media';
import { MediaOfferError, WebRtcEndpoint, type WebRtcSettings } from './webrtc-endpoint';
import { COULD_NOT_CONNECT } from './webrtc-leg';

const logged: { level: 'warn' | 'info'; msg: string; obj: object }[] = [];
const log = { warn: (obj: object, msg: string) => logged.push({ level: 'warn', msg, obj }), info: (obj: object, msg: string) => logged.push({ level: 'info', msg, obj }) };
const made: { endpoints: WebRtcEndpoint[]; clients: WebRtcClient[] } = { endpoints: [], clients: [] };

afterEach(async () => {
  await Promise.all(made.clients.map((client) => client.close()));
  await Promise.all(made.endpoints.map((endpoint) => endpoint.close()));
  made.clients = [];
  made.endpoints = [];
  logged.length = 0;
});

function endpoint(settings: Partial<WebRtcSettings> = {}) {
  const created = new WebRtcEndpoint({ portRange: [42_100, 42_139], publicAddress: null, ...settings });
  made.endpoints.push(created);
  return created;
}

async function offer() {
  const client = await WebRtcClient.create();
  made.clients.push(client);
  return client.offer();
}

const call = { lowData: false, log };
const candidates = (sdp: string) => [...sdp.matchAll(/^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/gm)].map((match) => ({ address: match[1]!, port: Number(match[2]) }));

describe('WebRtcEndpoint', () => {
  it('answers with mono Opus and in-band FEC, as ICE lite, its candidates gathered from the port range', async () => {
    const { sdp, leg } = await endpoint().answer(await offer(), call);
    expect(sdp).toMatch(/^a=rtpmap:111 opus\/48000\/2\r$/m);
    expect(sdp).toMatch(/^a=fmtp:111 useinbandfec=1;stereo=0\r$/m);
    expect(sdp).toMatch(/^a=ice-lite\r$/m);
    expect(sdp).toMatch(/^a=sendrecv\r$/m);
    expect(candidates(sdp).length).toBeGreaterThan(0);
    for (const { port } of candidates(sdp)) expect(port >= 42_100 && port <= 42_139).toBe(true);
    expect([leg.kind, leg.sampleRate, leg.bitrate]).toEqual(['browser', 16_000, OPUS_BITRATE]);
  });

  it('caps a Low Data Mode leg at the low-data bitrate', async () => {
    const { leg } = await endpoint().answer(await offer(), { ...call, lowData: true });
    expect(leg.bitrate).toBe(OPUS_LOW_DATA_BITRATE);
  });

  it('announces the public address in place of its own, on one port a peer', async () => {
    const { sdp } = await endpoint({ publicAddress: '203.0.113.7' }).answer(await offer(), call);
    expect(candidates(sdp).map((candidate) => candidate.address)).toEqual(['203.0.113.7']);
  });

  it('refuses a bad offer with the reason, logs it, and keeps no peer for it', async () => {
    const server = endpoint();
    const videoOnly = (await offer()).replace('m=audio', 'm=video');
    await expect(server.answer(videoOnly, call)).rejects.toThrow(new MediaOfferError('The browser offered no audio'));
    expect(logged).toEqual([{ level: 'warn', msg: 'WebRTC offer refused', obj: { reason: 'The browser offered no audio' } }]);
    expect(server.openPeers).toBe(0);
  });

  it("refuses an offer werift cannot take, naming werift's error only in the log", async () => {
    const server = endpoint();
    const withoutMid = (await offer()).replace(/^a=mid:0\r\n/m, '');
    const refusal = await server.answer(withoutMid, call).catch((error: unknown) => error);
    expect(refusal).toEqual(new MediaOfferError('The call audio offer could not be answered'));
    expect(logged[0]!.obj).toMatchObject({ reason: 'The call audio offer could not be answered', err: expect.any(Error) });
    expect(server.openPeers).toBe(0);
  });

  it('answers offers that arrive together, each on ports of its own', async () => {
    const server = endpoint();
    const offers = await Promise.all(Array.from({ length: 5 }, offer));
    const answers = await Promise.all(offers.map((sdp) => server.answer(sdp, call)));
    const ports = answers.flatMap(({ sdp }) => candidates(sdp).map((candidate) => candidate.port));
    expect(new Set(ports).size).toBe(ports.length);
    expect(server.openPeers).toBe(5);
  });

  it('refuses, rather than waits, once every port in the range is taken', async () => {
    const server = endpoint({ portRange: [42_140, 42_143] });
    const answered = [];
    let refusal: unknown;
    // One port an address a peer: four ports hold at least one peer, and at most four.
    for (let i = 0; i < 5 && refusal === undefined; i += 1) {
      await server.answer(await offer(), call).then(
        (answer) => answered.push(answer),
        (error: unknown) => (refusal = error),
      );
    }
    expect(answered.length).toBeGreaterThan(0);
    expect(refusal).toEqual(new MediaOfferError('No media port is free on this server'));
    expect(server.openPeers).toBe(answered.length);
  });

  it('closes a peer the browser never connects to, and frees its ports', async () => {
    const server = endpoint({ connectTimeoutMs: 200 });
    const { leg } = await server.answer(await offer(), call);
    const reasons: string[] = [];
    leg.onClose((reason) => reasons.push(reason));
    await until(() => server.openPeers === 0);
    expect(reasons).toEqual([COULD_NOT_CONNECT]);
    expect(logged.find((entry) => entry.msg === 'WebRTC leg closed')?.obj).toMatchObject({ reason: COULD_NOT_CONNECT, packetsIn: 0 });
  });

  it('closes every leg and peer when it closes, and answers no more', async () => {
    const server = endpoint();
    const { leg } = await server.answer(await offer(), call);
    const reasons: string[] = [];
    leg.onClose((reason) => reasons.push(reason));
    const pending = server.answer(await offer(), call);
    await server.close();
    expect(reasons).toEqual(['The server is shutting down']);
    await expect(pending).rejects.toThrow(MediaOfferError);
    await expect(server.answer(await offer(), call)).rejects.toThrow('The server is shutting down');
    expect(server.openPeers).toBe(0);
  });

  it('refuses a port range of one port, which werift cannot use', () => {
    expect(() => new WebRtcEndpoint({ portRange: [42_150, 42_150], publicAddress: null })).toThrow(/at least two ports/);
  });
});
