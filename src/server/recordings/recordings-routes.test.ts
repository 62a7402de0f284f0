import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import type { TestBrowser } from '../../../tests/support/test-browser';
import type { ObjectStore, StoredAudioState } from '../storage/object-store';
import { StorageUnavailableError } from '../storage/storage-unavailable-error';
import { recordingKey } from './recording-rows';
import { recordings } from './schema';

const SOUND_TEST = '+14155550100';

/** The object store, in memory; `reachable = false` makes it fail as a store that went away does. */
class MemoryStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  reachable = true;

  private check() {
    if (!this.reachable) throw new StorageUnavailableError('the object store did not answer');
  }
  async put(key: string, body: Buffer | Readable, contentType: string) {
    this.check();
    const bytes = Buffer.isBuffer(body) ? body : Buffer.concat(await body.toArray());
    this.objects.set(key, { body: bytes, contentType });
  }
  async head(key: string) {
    this.check();
    const object = this.objects.get(key);
    return object ? { bytes: object.body.length, contentType: object.contentType } : null;
  }
  async read(key: string, range?: { start: number; end: number }) {
    this.check();
    const object = this.objects.get(key);
    if (!object) return null;
    return Readable.from([range ? object.body.subarray(range.start, range.end + 1) : object.body]);
  }
  async delete(key: string) {
    this.check();
    this.objects.delete(key);
  }
}

/** Bytes that start like an Ogg file and differ at every offset, so that a wrong range shows. */
const FILE = Buffer.concat([Buffer.from('OggS'), Buffer.from(Array.from({ length: 5_000 }, (_, i) => (i * 7 + 3) % 256))]);

let testApp: TestApp;
let store: MemoryStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-recordings-'));
  store = new MemoryStore();
  testApp = await buildTestApp({ objectStore: store, env: { DATA_DIR: dataDir }, callTiming: { echoDelayMs: 100, mediaConnectTimeoutMs: 3_000 } });
});
afterAll(async () => {
  await testApp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A user with an ended call and a recording of it in the store. */
async function userWithRecording(state: StoredAudioState = 'saved', startedAt = new Date('2026-11-20T10:04:05Z')) {
  const user = await newSignedInUser(testApp.app);
  const from = await rentANumber(user.browser);
  const placed = await user.browser.post('/api/v1/calls', { from, to: SOUND_TEST });
  expect(placed.statusCode, placed.body).toBe(201);
  const callId: string = placed.json().call.id;
  await user.browser.post(`/api/v1/calls/${callId}/hangup`);
  const id = randomUUID();
  const objectKey = recordingKey(user.userId, id);
  await testApp.database.db
    .insert(recordings)
    .values({ id, userId: user.userId, callId, objectKey, state, startedAt, durationMs: 4_200, bytes: FILE.length, retainUntil: new Date(Date.now() + 86_400_000) });
  if (state !== 'failed') await store.put(objectKey, FILE, 'audio/ogg');
  return { ...user, callId, id, objectKey };
}

const audioOf = (browser: TestBrowser, id: string, headers: Record<string, string> = {}, query = '') =>
  browser.request('GET', `/api/v1/recordings/${id}/audio${query}`, undefined, headers);

describe('GET /api/v1/recordings', () => {
  it('lists the user’s recordings, newest first, and nobody else’s', async () => {
    const owner = await userWithRecording('saved', new Date('2026-11-20T10:00:00Z'));
    const newer = randomUUID();
    await testApp.database.db.insert(recordings).values({
      id: newer,
      userId: owner.userId,
      callId: null,
      objectKey: recordingKey(owner.userId, newer),
      state: 'pending_upload',
      startedAt: new Date('2026-11-21T09:00:00Z'),
      durationMs: 61_400,
      bytes: 150_000,
      retainUntil: new Date(Date.now() + 86_400_000),
    });
    await userWithRecording();

    const listed = await owner.browser.get('/api/v1/recordings');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().recordings).toEqual([
      { id: newer, callId: null, startedAt: '2026-11-21T09:00:00.000Z', durationSec: 61, bytes: 150_000, state: 'pending_upload' },
      { id: owner.id, callId: owner.callId, startedAt: '2026-11-20T10:00:00.000Z', durationSec: 4, bytes: FILE.length, state: 'saved' },
    ]);
  });
});

describe('GET /api/v1/recordings/:id/audio', () => {
  it('answers the whole Ogg file, saying that ranges may be asked for', async () => {
    const { browser, id } = await userWithRecording();
    const whole = await audioOf(browser, id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/ogg');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Number(whole.headers['content-length'])).toBe(FILE.length);
    expect(whole.rawPayload.equals(FILE)).toBe(true);
    expect(whole.headers['content-disposition'] ?? '').not.toMatch(/attachment/);
  });

  it.each([
    ['bytes=100-199', 100, 199],
    ['bytes=4990-', 4990, FILE.length - 1],
    ['bytes=-10', FILE.length - 10, FILE.length - 1],
  ])('answers %s with 206 and exactly those bytes, as seeking asks', async (range, start, end) => {
    const { browser, id } = await userWithRecording();
    const part = await audioOf(browser, id, { range });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${FILE.length}`);
    expect(part.rawPayload.equals(FILE.subarray(start, end + 1))).toBe(true);
  });

  it('answers 416 for a range beyond the end of the file', async () => {
    const { browser, id } = await userWithRecording();
    const beyond = await audioOf(browser, id, { range: `bytes=${FILE.length + 10}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${FILE.length}`);
    expect(beyond.json().error.code).toEqual(expect.any(String));
  });

  it('with download=1, saves it as a file named for when the call was', async () => {
    const { browser, id } = await userWithRecording('saved', new Date('2026-11-20T10:04:05Z'));
    const saved = await audioOf(browser, id, {}, '?download=1');
    expect(saved.statusCode).toBe(200);
    expect(saved.headers['content-disposition']).toMatch(/^attachment; filename="voxline-recording-2026-11-20-100405\.ogg"/);
    const refused = await audioOf(browser, id, {}, '?download=yes');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.field).toBe('download');
  });

  it('answers 404 to another user, by id and by range request, and for made-up ids and object keys', async () => {
    const owner = await userWithRecording();
    const other = await newSignedInUser(testApp.app);
    for (const [browser, id, headers] of [
      [other.browser, owner.id, {}],
      [other.browser, owner.id, { range: 'bytes=0-3' }],
      [owner.browser, randomUUID(), {}],
      [owner.browser, encodeURIComponent(owner.objectKey), {}],
      [owner.browser, encodeURIComponent(`${owner.userId}/${owner.id}.ogg`), { range: 'bytes=0-3' }],
    ] as const) {
      const answer = await audioOf(browser, id, headers);
      expect(answer.statusCode, id).toBe(404);
      expect(answer.json().error).toEqual({ code: 'not_found', message: 'No such recording' });
    }
  });

  it('answers 404, saying why, for a recording whose file could not be saved', async () => {
    const { browser, id } = await userWithRecording('failed');
    const answer = await audioOf(browser, id);
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error.message).toBe('This recording could not be saved, so there is no audio to play');
  });
});

describe('DELETE /api/v1/recordings/:id', () => {
  const rowOf = async (id: string) => (await testApp.database.db.select().from(recordings).where(eq(recordings.id, id)))[0];

  it('removes the object and the row, leaving the call in the history', async () => {
    const { browser, id, objectKey, callId } = await userWithRecording();
    expect((await browser.get('/api/v1/calls')).json().calls[0]).toMatchObject({ id: callId, recordingId: id });

    const deleted = await browser.request('DELETE', `/api/v1/recordings/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(store.objects.has(objectKey)).toBe(false);
    expect(await rowOf(id)).toBeUndefined();
    expect((await browser.get('/api/v1/calls')).json().calls[0]).toMatchObject({ id: callId, recordingId: null });
    expect((await audioOf(browser, id)).statusCode).toBe(404);
  });

  it('keeps the recording, and says why, when the store cannot be reached', async () => {
    const { browser, id, objectKey } = await userWithRecording();
    store.reachable = false;
    try {
      const refused = await browser.request('DELETE', `/api/v1/recordings/${id}`);
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error).toEqual({
        code: 'storage_unavailable',
        message: 'The recording could not be deleted because storage is not reachable. It is kept; try again in a moment.',
      });
    } finally {
      store.reachable = true;
    }
    expect(store.objects.has(objectKey)).toBe(true);
    expect(await rowOf(id)).toBeDefined();
  });

  it('answers 404 to another user, changing nothing', async () => {
    const owner = await userWithRecording();
    const other = await newSignedInUser(testApp.app);
    expect((await other.browser.request('DELETE', `/api/v1/recordings/${owner.id}`)).statusCode).toBe(404);
    expect(store.objects.has(owner.objectKey)).toBe(true);
    expect(await rowOf(owner.id)).toBeDefined();
  });
});

describe('GET /api/v1/storage', () => {
  it('says the bytes the user’s recordings and voicemail take', async () => {
    const { browser } = await userWithRecording();
    const usage = await browser.get('/api/v1/storage');
    expect(usage.statusCode).toBe(200);
    expect(usage.json()).toEqual({ recordingsBytes: FILE.length, voicemailBytes: 0 });
  });
});
