import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import type { StoredAudioState } from '../storage/object-store';
import { voicemails } from '../voicemail/schema';
import { recordingKey } from './recording-rows';
import { deleteRecording, RECORDING_IN_PROGRESS, recordingsOfCalls, STORE_UNREACHABLE_ON_DELETE, storageUsage } from './recordings-service';
import { recordings } from './schema';

const SOUND_TEST = '+14155550100';
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ callTiming: { echoDelayMs: 100, mediaConnectTimeoutMs: 3_000 } });
});
afterAll(() => testApp.close());

const db = () => testApp.database.db;

/** A user with one ended call to the sound-test line: their id and the call record's. */
async function userWithCall() {
  const user = await newSignedInUser(testApp.app);
  const from = await rentANumber(user.browser);
  const placed = await user.browser.post('/api/v1/calls', { from, to: SOUND_TEST });
  expect(placed.statusCode, placed.body).toBe(201);
  const callId: string = placed.json().call.id;
  await user.browser.post(`/api/v1/calls/${callId}/hangup`);
  return { ...user, callId };
}

async function insertRecording(userId: string, callId: string | null, state: StoredAudioState, { bytes = 1_000, startedAt = new Date() } = {}) {
  const id = randomUUID();
  await db()
    .insert(recordings)
    .values({ id, userId, callId, objectKey: recordingKey(userId, id), state, bytes, startedAt, retainUntil: new Date(Date.now() + 86_400_000) });
  return id;
}

describe('recordingsOfCalls', () => {
  it('offers the latest playable recording of each call, never one being written or lost, nor another user’s', async () => {
    const owner = await userWithCall();
    const other = await userWithCall();
    await insertRecording(owner.userId, owner.callId, 'saved', { startedAt: new Date('2026-11-20T10:00:00Z') });
    const latest = await insertRecording(owner.userId, owner.callId, 'pending_upload', { startedAt: new Date('2026-11-20T10:00:05Z') });
    await insertRecording(owner.userId, owner.callId, 'failed', { startedAt: new Date('2026-11-20T10:00:09Z') });
    await insertRecording(other.userId, other.callId, 'recording');

    const found = await recordingsOfCalls(db(), owner.userId, [owner.callId, other.callId]);
    expect([...found]).toEqual([[owner.callId, latest]]);
    expect((await recordingsOfCalls(db(), other.userId, [other.callId])).size).toBe(0);
    expect((await recordingsOfCalls(db(), owner.userId, [])).size).toBe(0);
  });

  it('names it on the call record Call History lists', async () => {
    const { browser, userId, callId } = await userWithCall();
    expect((await browser.get('/api/v1/calls')).json().calls[0]).toMatchObject({ id: callId, recordingId: null });
    const id = await insertRecording(userId, callId, 'saved');
    expect((await browser.get('/api/v1/calls')).json().calls[0]).toMatchObject({ id: callId, recordingId: id });
  });
});

describe('storageUsage', () => {
  it('adds up the bytes of the user’s recordings and voicemail, leaving out lost files and other users', async () => {
    const owner = await userWithCall();
    const other = await userWithCall();
    await insertRecording(owner.userId, owner.callId, 'saved', { bytes: 120_000 });
    await insertRecording(owner.userId, null, 'pending_upload', { bytes: 30_000 });
    await insertRecording(owner.userId, owner.callId, 'failed', { bytes: 999 });
    await insertRecording(other.userId, other.callId, 'saved', { bytes: 50_000 });
    for (const [state, bytes] of [['saved', 8_000], ['failed', 7]] as const) {
      const id = randomUUID();
      await db()
        .insert(voicemails)
        .values({ id, userId: owner.userId, fromNumber: '+17185550188', toNumber: '+14155550123', objectKey: `voicemail/${owner.userId}/${id}.ogg`, state, bytes, retainUntil: new Date(Date.now() + 86_400_000) });
    }

    expect(await storageUsage(db(), owner.userId)).toEqual({ recordingsBytes: 150_000, voicemailBytes: 8_000 });
    expect(await storageUsage(db(), (await newSignedInUser(testApp.app)).userId)).toEqual({ recordingsBytes: 0, voicemailBytes: 0 });
  });
});

describe('deleteRecording', () => {
  const rowOf = async (id: string) => (await db().select().from(recordings).where(eq(recordings.id, id)))[0];

  it('removes the file, then the row', async () => {
    const { userId, callId } = await userWithCall();
    const id = await insertRecording(userId, callId, 'saved');
    const deleted: string[] = [];
    await deleteRecording(db(), { delete: async (key) => void deleted.push(key) }, userId, id);
    expect(deleted).toEqual([recordingKey(userId, id)]);
    expect(await rowOf(id)).toBeUndefined();
  });

  it('keeps the recording, and says why, when the store cannot be reached', async () => {
    const { userId, callId } = await userWithCall();
    const id = await insertRecording(userId, callId, 'saved');
    const unreachable = { delete: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9000')) };
    await expect(deleteRecording(db(), unreachable, userId, id)).rejects.toMatchObject({ statusCode: 503, code: 'storage_unavailable', message: STORE_UNREACHABLE_ON_DELETE });
    expect(await rowOf(id)).toMatchObject({ state: 'saved' });
  });

  it('refuses a recording still being written, touching nothing', async () => {
    const { userId, callId } = await userWithCall();
    const id = await insertRecording(userId, callId, 'recording');
    const deleted: string[] = [];
    await expect(deleteRecording(db(), { delete: async (key) => void deleted.push(key) }, userId, id)).rejects.toMatchObject({ statusCode: 409, message: RECORDING_IN_PROGRESS });
    expect(deleted).toEqual([]);
    expect(await rowOf(id)).toBeDefined();
  });

  it('answers 404 for another user’s recording, and for ids that are not one, touching nothing', async () => {
    const owner = await userWithCall();
    const other = await userWithCall();
    const id = await insertRecording(owner.userId, owner.callId, 'saved');
    const files = { delete: () => Promise.reject(new Error('must not be called')) };
    for (const [userId, asked] of [[other.userId, id], [owner.userId, randomUUID()], [owner.userId, recordingKey(owner.userId, id)]] as const) {
      await expect(deleteRecording(db(), files, userId, asked)).rejects.toMatchObject({ statusCode: 404, message: 'No such recording' });
    }
    expect(await rowOf(id)).toBeDefined();
  });
});
