import { buffer } from 'node:stream/consumers';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDING_MAX_BYTES_PER_MINUTE } from '../../common/api/recordings';
import { DEFAULT_SOUND_TEST_NUMBER } from '../../common/calls';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { decodeOggOpus } from '../../../tests/support/ogg-opus-decode';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';
import { subscriptions } from '../plans/schema';
import { LocalObjectStore } from '../storage/local-object-store';
import { recordings } from './schema';

let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

describe('a recorded call’s file', () => {
  it('is stereo Ogg Opus of the sound test: the tone on both channels, as long as it was recorded, within 250 kB a minute', async () => {
    const ada = await newSignedInUser(testApp.app);
    await testApp.database.db.insert(subscriptions).values({ userId: ada.userId, tier: 'premium', expiresAt: new Date(Date.now() + 86_400_000) });
    const number = await rentANumber(ada.browser);
    const tab = await RealtimeTab.open(wsBase, ada.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: number, to: DEFAULT_SOUND_TEST_NUMBER })).json();
    const media = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    media.sendTone(440, 16_000);
    await until(() => media.received.length > 10);

    tab.send({ type: 'call.record', callId: placed.call.id, recording: true });
    await tab.next('call.recording');
    const heardAtStart = media.received.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    tab.send({ type: 'call.record', callId: placed.call.id, recording: false });
    const rows = () => testApp.database.db.select().from(recordings).where(eq(recordings.userId, ada.userId));
    await until(async () => (await rows())[0]?.state === 'saved', 10_000);
    // What the recording covered, by the frames the call carried meanwhile.
    const recordedMs = (media.received.length - heardAtStart) * 20;
    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    media.close();

    const [row] = await rows();
    const stream = await new LocalObjectStore(path.join(testApp.config.dataDir, 'objects')).read(row!.objectKey);
    const bytes = await buffer(stream!);
    expect(bytes.length).toBe(row!.bytes);
    const decoded = decodeOggOpus(bytes);
    expect(decoded.sampleRate).toBe(16_000);
    expect(decoded.channels).toHaveLength(2);
    expect(Math.abs(decoded.durationMs - row!.durationMs)).toBeLessThan(100);
    expect(Math.abs(decoded.durationMs - recordedMs)).toBeLessThan(500);
    const lastSecond = (channel: Int16Array) => Float32Array.from(channel.subarray(-16_000), (sample) => sample / 32768);
    expect(dominantFrequency(lastSecond(decoded.channels[0]!), 16_000)).toBeCloseTo(440, 0);
    expect(dominantFrequency(lastSecond(decoded.channels[1]!), 16_000)).toBeCloseTo(440, 0);
    expect((bytes.length * 60_000) / decoded.durationMs).toBeLessThanOrEqual(RECORDING_MAX_BYTES_PER_MINUTE);
  });
});
