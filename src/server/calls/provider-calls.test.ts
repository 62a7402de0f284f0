import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDEBAND_RATE } from '../../common/calls';
import { callCore } from '../../../tests/support/call-core';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { user } from '../auth/schema';
import type { DatabaseHandle } from '../db/client';
import type { OutboundCallRequest, TelephonyProvider } from '../providers/telephony/telephony-provider';
import { calls } from './schema';

/** The provider at the network's edge: what it was asked to place and hang up. */
class FakeProviderCalls {
  readonly placed: OutboundCallRequest[] = [];
  readonly hungUp: string[] = [];
  failure: Error | null = null;
  async place(request: OutboundCallRequest) {
    if (this.failure) throw this.failure;
    this.placed.push(request);
    return { providerCallId: `provider-${this.placed.length}` };
  }
  async hangup(providerCallId: string) {
    this.hungUp.push(providerCallId);
  }
  async sayAndHangUp(providerCallId: string) {
    this.hungUp.push(providerCallId);
  }
  async sendDtmf() {}
}

const unused = () => Promise.reject(new Error('not used by calls'));
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** The provider side of one instance, and a caller's call to an outside number ready to place. */
async function setUp() {
  const providerCalls = new FakeProviderCalls();
  const telephony: TelephonyProvider = { name: 'vonage', calls: providerCalls, searchNumbers: unused, rentNumber: unused, configureInboundVoice: unused, releaseNumber: unused };
  const { instanceId, live, provider } = callCore(database.db, { telephony });

  const userId = randomUUID();
  await database.db.insert(user).values({ id: userId, name: 'Caller', email: `${userId}@example.com` });
  const [row] = await database.db
    .insert(calls)
    .values({ conversationId: randomUUID(), userId, direction: 'outbound', fromNumber: '+14155550123', toNumber: '+442071838750', state: 'dialing', metered: true, instanceId })
    .returning();
  const call = live.create(row!.id, userId, WIDEBAND_RATE);
  live.add(call);
  const record = async () => (await database.db.select().from(calls).where(eq(calls.id, call.id)))[0];
  return { live, provider, providerCalls, call, userId, record };
}

const tokenOf = (mediaUrl: string) => new URL(mediaUrl).searchParams.get('token') ?? '';

describe('ProviderSide', () => {
  it('places the call with a one-time media token, and hangs the provider’s side up once when the call ends', async () => {
    const { live, provider, providerCalls, call, userId, record } = await setUp();
    await provider.callOutside(call, '+14155550123', '+442071838750');
    const [placed] = providerCalls.placed;
    expect(placed).toMatchObject({ callId: call.id, eventUrl: `https://voxline.example/api/v1/providers/vonage/events?call=${call.id}` });
    expect(await record()).toMatchObject({ state: 'ringing', providerCallId: 'provider-1' });

    const token = tokenOf(placed!.mediaUrl);
    expect(provider.claimMedia('not-the-token')).toBeNull();
    expect(provider.claimMedia(token)).toBe(call.id);
    expect(provider.claimMedia(token)).toBeNull();

    await live.hangUp(userId, call.id);
    await live.end(call, 'failed', 'Again');
    await until(() => providerCalls.hungUp.length > 0);
    expect(providerCalls.hungUp).toEqual(['provider-1']);
    expect(await record()).toMatchObject({ state: 'ended', outcome: 'cancelled' });
  });

  it('follows the provider’s events: answered, then ended by the far side, with nothing to hang up', async () => {
    const { provider, providerCalls, call, record } = await setUp();
    await provider.callOutside(call, '+14155550123', '+442071838750');
    await provider.receiveEvent('provider-1', { type: 'ringing' }, call.id);
    await provider.receiveEvent('provider-1', { type: 'answered' }, call.id);
    expect(call.answeredAt).not.toBeNull();
    expect(await record()).toMatchObject({ state: 'answered' });

    await provider.receiveEvent('provider-1', { type: 'ended', outcome: 'completed', reason: null });
    expect(call.ending).toBe(true);
    expect(await record()).toMatchObject({ state: 'ended', outcome: 'completed' });
    expect(providerCalls.hungUp).toEqual([]);
  });

  it('ends the call as failed when the provider cannot place it', async () => {
    const { provider, providerCalls, call, record } = await setUp();
    providerCalls.failure = new Error('connection refused');
    await expect(provider.callOutside(call, '+14155550123', '+442071838750')).rejects.toThrow('The phone network could not be reached');
    expect(await record()).toMatchObject({ state: 'ended', outcome: 'failed', reason: 'The phone network could not be reached' });
    expect(providerCalls.hungUp).toEqual([]);
  });
});
