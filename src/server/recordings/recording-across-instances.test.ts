import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SOUND_TEST_NUMBER } from '../../common/calls';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { capturingRecordingStorage } from '../../../tests/support/recording-storage';
import { TestBrowser } from '../../../tests/support/test-browser';
import { canShareInstances, twoInstances } from '../../../tests/support/two-instances';
import { until } from '../../../tests/support/until';
import { subscriptions } from '../plans/schema';
import { recordings } from './schema';

/** `call.record` from a tab on one instance for a call another holds: one PostgreSQL database, one Redis. */
describe.skipIf(!canShareInstances)('recording across instances', () => {
  const storage = capturingRecordingStorage();
  const pair = twoInstances({ listening: 'two', recordingStorage: storage.storage });

  it('reaches the instance holding the call, which records it there', async () => {
    // The call is placed through instance one, which holds it; the tab and the audio reach two.
    const ada = await newSignedInUser(pair.one.app, 'Ada Across');
    await pair.one.database.db.insert(subscriptions).values({ userId: ada.userId, tier: 'premium', expiresAt: new Date(Date.now() + 86_400_000) });
    const number = await rentANumber(ada.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: number, to: DEFAULT_SOUND_TEST_NUMBER })).json();
    const viaTwo = new TestBrowser(pair.two.app);
    for (const [name, value] of ada.browser.cookies) viaTwo.cookies.set(name, value);
    const tab = await RealtimeTab.open(pair.ws, viaTwo);
    const media = await MediaClient.connect(`${pair.ws}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    media.sendTone(440, 16_000);
    await until(() => media.received.length >= 10);

    tab.send({ type: 'call.record', callId: placed.call.id, recording: true });
    expect(await tab.next('call.recording')).toMatchObject({ callId: placed.call.id, recording: true, byYou: true });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    tab.send({ type: 'call.record', callId: placed.call.id, recording: false });
    const rows = () => pair.one.database.db.select().from(recordings).where(eq(recordings.userId, ada.userId));
    await until(async () => (await rows())[0]?.state === 'saved', 10_000);
    const left = storage.recordings[0]!.left.slice(-8_000).map((sample) => sample / 32768);
    expect(dominantFrequency(left, 16_000)).toBeCloseTo(440, 0);
    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    media.close();
    tab.socket.close();
  });
});
