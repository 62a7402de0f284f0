import { describe, expect, it } from 'vitest';
import { dominantFrequency } from '../support/dsp/analysis';
import { newSignedInUser, rentANumber } from '../support/accounts';
import { cookieHeader, MediaClient } from '../support/media-client';
import { canShareInstances, twoInstances } from '../support/two-instances';
import { until } from '../support/until';


/**
 * An Opus media socket that reaches the instance not holding its call: that instance decodes and
 * encodes the Opus, and PCM at the call's rate crosses the bus (docs/calls.md#media).
 */
describe.skipIf(!canShareInstances)('an Opus media socket relayed between two instances', () => {
  const instances = twoInstances({ listening: 'one', callTiming: { echoDelayMs: 0 } });

  /** A call to the sound-test line held by instance 2, its Opus audio connected through instance 1. */
  async function echoThroughOne(lowData: boolean) {
    const ada = await newSignedInUser(instances.two.app, 'Ada Relayed');
    const number = await rentANumber(ada.browser);
    if (lowData) await ada.browser.patch('/api/v1/preferences', { dataUsage: true });
    const placed = await ada.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const media = await MediaClient.connect(`${instances.ws}${placed.json().mediaPath}`, cookieHeader(ada.browser.cookies), 'opus');
    return { ada, call: placed.json().call as { id: string }, sampleRate: placed.json().sampleRate as number, media };
  }

  it('hears the 440 Hz tone back as Opus; an oversized message and garbage are dropped and the call goes on', async () => {
    const { ada, call, media } = await echoThroughOne(false);
    media.socket.send(Buffer.alloc(2000, 0x78));
    media.socket.send(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 50, 10_000);
    expect(media.undecodable).toBe(0);
    expect(media.bytesReceived / media.received.length).toBeLessThan(200);
    expect(dominantFrequency(media.audio(20), 16_000)).toBeCloseTo(440, 0);
    await until(async () => (await ada.browser.get(`/api/v1/calls/${call.id}`)).json().mediaTransport === 'websocket-opus');
    expect((await ada.browser.get(`/api/v1/calls/${call.id}`)).json().state).toBe('answered');
    media.close();
    await until(async () => (await ada.browser.get(`/api/v1/calls/${call.id}`)).json().state === 'ended');
  });

  it('carries a Low Data Mode call’s 8 kHz frames on the bus, and Opus at 16 kHz on the socket', async () => {
    const { ada, call, sampleRate, media } = await echoThroughOne(true);
    expect(sampleRate).toBe(8_000);
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 50, 10_000);
    expect(media.received.every((frame) => frame.length === 320)).toBe(true);
    expect(dominantFrequency(media.audio(20), 16_000)).toBeCloseTo(440, 0);
    media.close();
    await until(async () => (await ada.browser.get(`/api/v1/calls/${call.id}`)).json().state === 'ended');
  });
});
