import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { memoryStorage } from '../../../tests/support/memory-storage';
import { buildTestApp, type TestApp, type TestAppOptions } from '../../../tests/support/test-app';
import { capturingMailer, type TestBrowser } from '../../../tests/support/test-browser';
import { toneWav } from '../../../tests/support/voicemail-audio';
import { retainUntil } from '../../common/plans';
import type { ObjectStore } from '../storage/object-store';
import { encodeOggOpus } from './ogg-opus-encode';
import { decodeOggOpus } from './ogg-opus-audio';
import { voicemails } from './schema';

let testApp: TestApp;
const storage = memoryStorage();

beforeAll(async () => {
  // The app's object store, injected so the test can put a message's file and see it deleted.
  const options: TestAppOptions & { objectStore: ObjectStore } = { mailer: capturingMailer(), objectStore: storage.store };
  testApp = await buildTestApp(options);
});
afterAll(() => testApp.close());

const upload = (browser: TestBrowser, body: Buffer, contentType = 'audio/wav') => browser.request('PUT', '/api/v1/voicemail/greeting', body, { 'content-type': contentType });

/** A message in `userId`'s voicemail, its audio in the object store (what a call leaves behind). */
async function messageFor(userId: string) {
  const id = randomUUID();
  const objectKey = `voicemail/${userId}/${id}.ogg`;
  const audio = encodeOggOpus(new Int16Array(16_000).fill(1_000));
  await storage.store.put(objectKey, audio, 'audio/ogg');
  const createdAt = new Date();
  await testApp.database.db.insert(voicemails).values({
    id,
    userId,
    fromNumber: '+12125550123',
    toNumber: '+14155550124',
    objectKey,
    state: 'saved',
    durationMs: 1_000,
    bytes: audio.length,
    createdAt,
    retainUntil: retainUntil('free', 'voicemail', createdAt),
  });
  return { id, objectKey, bytes: audio.length };
}

describe('the voicemail greeting', () => {
  it('is the default until one is uploaded: a WAV (stereo, 44.1 kHz) becomes mono Ogg Opus at 16 kHz; deleting it goes back', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const initial = (await browser.get('/api/v1/voicemail/greeting')).json();
    expect(initial).toMatchObject({ custom: false, updatedAt: null });
    expect(initial.durationSec).toBeGreaterThan(3);
    const defaultAudio = await browser.get('/api/v1/voicemail/greeting/audio');
    expect(defaultAudio.statusCode).toBe(200);
    expect(defaultAudio.headers['content-type']).toContain('audio/ogg');

    const uploaded = await upload(browser, toneWav({ hz: 500, seconds: 2, sampleRate: 44_100, channels: 2 }));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({ custom: true });
    expect(uploaded.json().durationSec).toBeCloseTo(2, 1);
    const audio = await browser.get('/api/v1/voicemail/greeting/audio');
    const samples = decodeOggOpus(audio.rawPayload);
    expect(samples.length / 16_000).toBeCloseTo(2, 1);
    expect(dominantFrequency(Float32Array.from(samples.subarray(8_000, 24_000), (s) => s / 32768), 16_000)).toBeCloseTo(500, 0);

    expect((await browser.delete('/api/v1/voicemail/greeting')).json()).toMatchObject({ custom: false });
  });

  it('takes an Ogg Opus file', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await upload(browser, encodeOggOpus(new Int16Array(16_000 * 3).fill(2_000)), 'audio/ogg');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().durationSec).toBeCloseTo(3, 1);
  });

  it('refuses a greeting longer than 30 seconds, larger than 1 MB, or not audio, naming the problem', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const long = await upload(browser, toneWav({ hz: 400, seconds: 31, sampleRate: 8_000 }));
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatchObject({ message: 'The greeting is longer than 30 seconds', field: 'greeting' });

    const large = await upload(browser, Buffer.alloc(1_100_000, 1));
    expect(large.statusCode).toBe(413);
    expect(large.json().error.message).toBe('The greeting is larger than 1 MB');

    for (const [body, type] of [
      [Buffer.from('hello, this is not audio'), 'audio/wav'],
      [Buffer.from('{"greeting":"nope"}'), 'application/json'],
      [Buffer.from('OggS but broken'), 'audio/ogg'],
    ] as const) {
      const refused = await upload(browser, body, type);
      expect(refused.statusCode, type).toBe(400);
      expect(refused.json().error.message).toContain('The greeting must be a WAV or Ogg Opus audio file');
    }
    expect((await browser.get('/api/v1/voicemail/greeting')).json().custom).toBe(false);
  });
});

describe('voicemail messages', () => {
  it('list newest first with the unheard count, play with ranges, mark heard, delete object then row', async () => {
    const owner = await newSignedInUser(testApp.app);
    const first = await messageFor(owner.userId);
    const second = await messageFor(owner.userId);
    const list = (await owner.browser.get('/api/v1/voicemail')).json();
    expect(list.unheard).toBe(2);
    expect(list.voicemails.map((message: { id: string }) => message.id).sort()).toEqual([first.id, second.id].sort());

    const ranged = await owner.browser.request('GET', `/api/v1/voicemail/${first.id}/audio`, undefined, { range: 'bytes=0-9' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.length).toBe(10);
    const beyond = await owner.browser.request('GET', `/api/v1/voicemail/${first.id}/audio`, undefined, { range: `bytes=${first.bytes + 10}-` });
    expect(beyond.statusCode).toBe(416);

    expect((await owner.browser.patch(`/api/v1/voicemail/${first.id}`, { heard: true })).json()).toMatchObject({ id: first.id, heard: true });
    expect((await owner.browser.get('/api/v1/voicemail')).json().unheard).toBe(1);
    expect((await owner.browser.patch(`/api/v1/voicemail/${first.id}`, { heard: 'yes' })).statusCode).toBe(400);

    expect((await owner.browser.delete(`/api/v1/voicemail/${first.id}`)).statusCode).toBe(204);
    expect(storage.objects.has(first.objectKey)).toBe(false);
    expect((await owner.browser.get('/api/v1/voicemail')).json().voicemails.map((message: { id: string }) => message.id)).toEqual([second.id]);
  });

  it('answer 404 for another user’s message, by id and by range, and for ids that are not messages', async () => {
    const owner = await newSignedInUser(testApp.app);
    const stranger = await newSignedInUser(testApp.app);
    const message = await messageFor(owner.userId);
    const attempts = [
      stranger.browser.get(`/api/v1/voicemail/${message.id}/audio`),
      stranger.browser.request('GET', `/api/v1/voicemail/${message.id}/audio`, undefined, { range: 'bytes=0-9' }),
      stranger.browser.patch(`/api/v1/voicemail/${message.id}`, { heard: true }),
      stranger.browser.delete(`/api/v1/voicemail/${message.id}`),
      owner.browser.get(`/api/v1/voicemail/${randomUUID()}/audio`),
      owner.browser.get(`/api/v1/voicemail/${encodeURIComponent(message.objectKey)}/audio`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe('No such voicemail');
    }
    expect((await owner.browser.get('/api/v1/voicemail')).json()).toMatchObject({ unheard: 1 });
  });
});
