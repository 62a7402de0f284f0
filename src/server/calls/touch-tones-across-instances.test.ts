import { describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { TestBrowser } from '../../../tests/support/test-browser';
import { canShareInstances, twoInstances } from '../../../tests/support/two-instances';
import { until } from '../../../tests/support/until';
import { detectDtmf } from '../../dsp/dtmf';

/** Keys sent through one instance for a call another holds: one PostgreSQL database, one Redis. */
describe.skipIf(!canShareInstances)('touch-tones across instances', () => {
  const pair = twoInstances({ listening: 'two' });

  it('reach the call on the instance holding it, and are refused there once it has ended', async () => {
    const caller = await newSignedInUser(pair.two.app, 'Tara Tones');
    const number = await rentANumber(caller.browser);
    const placed = (await caller.browser.post('/api/v1/calls', { from: number, to: '+14155550100' })).json();
    const media = await MediaClient.connect(`${pair.ws}${placed.mediaPath}`, cookieHeader(caller.browser.cookies));
    media.sendTone(220, 16_000);
    await until(() => media.received.length >= 5);

    // The same signed-in browser, its request sent by the balancer to the other instance.
    const viaOne = new TestBrowser(pair.one.app);
    for (const [name, value] of caller.browser.cookies) viaOne.cookies.set(name, value);
    const from = media.received.length;
    const sent = await viaOne.post(`/api/v1/calls/${placed.call.id}/dtmf`, { digits: '7*' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ digits: '7*', via: 'tones' });
    await until(() => detectDtmf(media.audio(from), 16_000) === '7*', 10_000);

    await caller.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    const ended = await viaOne.post(`/api/v1/calls/${placed.call.id}/dtmf`, { digits: '1' });
    expect(ended.statusCode).toBe(409);
    expect(ended.json().error.code).toBe('no_call_up');
  });
});
