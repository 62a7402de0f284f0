import { describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber, TEST_PASSWORD } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { canShareInstances, twoInstances } from '../../../tests/support/two-instances';
import { TestBrowser } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { ENDED_BY_ADMIN } from './service';

const ADMIN_EMAIL = 'night.shift@example.com';

/** The admin view on one instance, a call held by another: one PostgreSQL database, one Redis. */
describe.skipIf(!canShareInstances)('the admin view across instances', () => {
  const pair = twoInstances({ listening: 'two', env: { ADMIN_EMAILS: ADMIN_EMAIL } });

  it('lists a call held by the other instance with its live figures, and ends it there', async () => {
    const caller = await newSignedInUser(pair.two.app, 'Remy Remote');
    const number = await rentANumber(caller.browser);
    const tab = await RealtimeTab.open(pair.ws, caller.browser);
    const placed = await caller.browser.post('/api/v1/calls', { from: number, to: '+14155550100' });
    expect(placed.statusCode, placed.body).toBe(201);
    const callId = placed.json().call.id as string;
    const media = await MediaClient.connect(`${pair.ws}${placed.json().mediaPath}`, cookieHeader(caller.browser.cookies));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 5);

    expect((await new TestBrowser(pair.one.app).post('/api/v1/auth/sign-up', { fullName: 'Nina Night', email: ADMIN_EMAIL, password: TEST_PASSWORD })).statusCode).toBe(201);
    const admin = new TestBrowser(pair.one.app);
    expect((await admin.post('/api/v1/auth/sign-in', { email: ADMIN_EMAIL, password: TEST_PASSWORD })).statusCode).toBe(200);

    const calls = (await admin.get('/api/v1/admin/calls')).json().calls as { id: string; instanceId: string; media: { framesIn: number } | null }[];
    const call = calls.find((one) => one.id === callId);
    expect(call?.instanceId).not.toBeNull();
    expect(call!.media!.framesIn).toBeGreaterThan(0);
    const instances = (await admin.get('/api/v1/admin/instances')).json().instances as { id: string; state: string; calls: number }[];
    expect(instances.find((instance) => instance.id === call!.instanceId)).toMatchObject({ state: 'running', calls: 1 });
    expect(instances.filter((instance) => instance.state === 'running')).toHaveLength(2);

    const ended = await admin.post(`/api/v1/admin/calls/${callId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await tab.next('call.ended')).toMatchObject({ callId, reason: ENDED_BY_ADMIN });
    expect((await admin.post(`/api/v1/admin/calls/${callId}/end`)).statusCode).toBe(404);
    media.close();
    tab.socket.close();
  });
});
