import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../http/error-handler';
import type { StoredAudio } from './audio-spool';
import { serveStoredAudio } from './serve-audio';
import { StorageUnavailableError } from './storage-unavailable-error';

const file = Buffer.from('0123456789');
const audio: StoredAudio = {
  head: async (key) => (key === 'a.ogg' ? { bytes: file.length, contentType: 'audio/ogg' } : key === 'away.ogg' ? Promise.reject(new StorageUnavailableError('the store did not answer')) : null),
  read: async (key, range) => (key === 'a.ogg' ? Readable.from([range ? file.subarray(range.start, range.end + 1) : file]) : null),
};

describe('serveStoredAudio', () => {
  const app = Fastify();
  beforeAll(async () => {
    installErrorHandling(app);
    app.get<{ Params: { key: string }; Querystring: { download?: string } }>('/audio/:key', (request, reply) =>
      serveStoredAudio(request, reply, audio, request.params.key, { contentType: 'audio/ogg', filename: 'Call 2026-11-26 é.ogg', download: request.query.download === '1' }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, range?: string) => app.inject({ method: 'GET', url, headers: range ? { range } : {} });

  it('serves the whole file with its length, never cached', async () => {
    const response = await get('/audio/a.ogg');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('0123456789');
    expect(response.headers).toMatchObject({ 'content-length': '10', 'accept-ranges': 'bytes', 'cache-control': 'private, no-store', 'content-type': 'audio/ogg' });
    expect(response.headers['content-disposition']).toBeUndefined();
  });

  it.each([
    ['bytes=2-5', '2345', 'bytes 2-5/10'],
    ['bytes=7-', '789', 'bytes 7-9/10'],
    ['bytes=-3', '789', 'bytes 7-9/10'],
    ['bytes=8-100', '89', 'bytes 8-9/10'],
  ])('answers %s with 206 and the range', async (range, body, contentRange) => {
    const response = await get('/audio/a.ogg', range);
    expect(response.statusCode).toBe(206);
    expect(response.body).toBe(body);
    expect(response.headers['content-range']).toBe(contentRange);
    expect(response.headers['content-length']).toBe(String(body.length));
  });

  it('answers a range past the end with 416, the size, and the error body', async () => {
    const response = await get('/audio/a.ogg', 'bytes=10-');
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe('bytes */10');
    expect(response.json()).toEqual({ error: { code: 'range_not_satisfiable', message: expect.stringContaining('10 bytes') } });
  });

  it('names the download', async () => {
    const response = await get('/audio/a.ogg?download=1');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Call 2026-11-26 _.ogg"; filename*=UTF-8''Call%202026-11-26%20%C3%A9.ogg`);
  });

  it('answers 404 for a file that is not there and 503 when the store is away', async () => {
    expect((await get('/audio/none.ogg')).statusCode).toBe(404);
    const away = await get('/audio/away.ogg');
    expect(away.statusCode).toBe(503);
    expect(away.json().error.code).toBe('storage_unavailable');
  });
});
