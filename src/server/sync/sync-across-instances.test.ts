import { describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { canShareInstances, twoInstances } from '../../../tests/support/two-instances';
import { subscriptions } from '../plans/schema';

/** Two instances behind one address, one PostgreSQL database and one Redis: a device on each. */
describe.skipIf(!canShareInstances)('sync across instances', () => {
  const pair = twoInstances({ listening: 'two' });

  it('tells a tab held by the other instance about a contact added through this one, and no other user', async () => {
    const owner = await newSignedInUser(pair.one.app, 'Iris Instances');
    const stranger = await newSignedInUser(pair.one.app, 'Otto Other');
    // Multi-device sync is Platinum's (docs/decisions/037-sync-on-platinum.md).
    const monthAhead = new Date(Date.now() + 30 * 86_400_000);
    await pair.one.database.db.insert(subscriptions).values([owner, stranger].map(({ userId }) => ({ userId, tier: 'platinum' as const, expiresAt: monthAhead })));
    const otherDevice = await RealtimeTab.open(pair.ws, owner.browser);
    const strangerTab = await RealtimeTab.open(pair.ws, stranger.browser);

    const created = await owner.browser.post('/api/v1/contacts', { name: 'Ada', phoneNumber: '+14155550123' });
    expect(created.statusCode, created.body).toBe(201);
    expect(await otherDevice.next('sync')).toEqual({ type: 'sync', topics: ['contacts'] });

    // The stranger's own change comes after anything sent to their tab before it, through the same bus.
    expect((await stranger.browser.patch('/api/v1/preferences', { darkMode: true })).statusCode).toBe(200);
    expect(await strangerTab.next('sync')).toEqual({ type: 'sync', topics: ['preferences'] });
    expect(strangerTab.messages.filter((message) => message.type === 'sync')).toHaveLength(1);
    otherDevice.socket.close();
    strangerTab.socket.close();
  });
});
