import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { markVoicemailBodySchema, VOICEMAIL_GREETING_MAX_BYTES, voicemailGreetingSchema, voicemailListSchema, voicemailSchema } from '../../common/api/voicemail';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import { AppError } from '../http/app-error';
import type { AudioSource } from '../storage/object-store';
import { GREETING_CONTENT_TYPE } from './greetings';
import { NOT_AUDIO } from './greeting-audio';
import type { VoicemailService } from './service';

/** The reader the audio routes stream from: the object store, or a file in memory (the default greeting). */

/** Streams `key` from `audio` with HTTP range requests (storage/): 206 for a range, 416 beyond the end, 404 when absent. */
export type ServeAudio = (
  request: FastifyRequest,
  reply: FastifyReply,
  audio: AudioSource,
  key: string,
  options: { contentType: string; filename: string; download: boolean },
) => Promise<unknown>;

/** A change here reaches the owner's other tabs (docs/architecture.md#sync). */
const SYNC = { sync: ['voicemail'] as const };

const idParamsSchema = z.object({ id: z.string().max(100) });
const audioQuerySchema = z.object({ download: z.enum(['0', '1'], { error: 'download must be 0 or 1' }).optional() });

const tooLarge = () => new AppError(413, 'greeting_too_large', `The greeting is larger than ${VOICEMAIL_GREETING_MAX_BYTES / 1_000_000} MB`, 'greeting');

/** The raw upload, refused as soon as it passes VOICEMAIL_GREETING_MAX_BYTES, whatever its Content-Type says. */
async function readUpload(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > VOICEMAIL_GREETING_MAX_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += bytes.length;
    if (size > VOICEMAIL_GREETING_MAX_BYTES) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** docs/api.md, Voicemail: the owner's messages and greeting. Another user's message is 404. */
export const voicemailRoutes: FastifyPluginAsyncZod<{ auth: Auth; voicemail: VoicemailService; serveAudio: ServeAudio }> = async (app, { auth, voicemail, serveAudio }) => {
  app.get('/voicemail', { schema: { response: { 200: voicemailListSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return voicemail.list(user.id);
  });

  app.get('/voicemail/greeting', { schema: { response: { 200: voicemailGreetingSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return voicemail.greetings.describe(user.id);
  });

  app.get('/voicemail/greeting/audio', async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const file = await voicemail.greetings.file(user.id);
    const options = { contentType: GREETING_CONTENT_TYPE, filename: 'voicemail-greeting.ogg', download: false };
    if ('key' in file) return serveAudio(request, reply, voicemail.store, file.key, options);
    return serveAudio(request, reply, inMemory(file.defaultFile), 'default-greeting', options);
  });

  // Binary uploads on this route only: the app's other routes take JSON.
  await app.register(async (upload) => {
    upload.addContentTypeParser('*', readUpload);
    upload.put('/voicemail/greeting', { config: SYNC, schema: { response: { 200: voicemailGreetingSchema } } }, async (request, reply) => {
      const user = await requireUser(auth, request, reply);
      if (!Buffer.isBuffer(request.body)) throw AppError.badRequest(NOT_AUDIO, 'greeting');
      return voicemail.greetings.replace(user.id, request.body);
    });
  });

  app.delete('/voicemail/greeting', { config: SYNC, schema: { response: { 200: voicemailGreetingSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return voicemail.greetings.reset(user.id);
  });

  app.get('/voicemail/:id/audio', { schema: { params: idParamsSchema, querystring: audioQuerySchema } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const message = await voicemail.find(user.id, request.params.id);
    if (message.state === 'failed') throw AppError.notFound('This message could not be saved, so there is no audio to play');
    return serveAudio(request, reply, voicemail.messageAudio, message.objectKey, {
      contentType: 'audio/ogg',
      filename: `voicemail-${message.createdAt.toISOString().slice(0, 10)}.ogg`,
      download: request.query.download === '1',
    });
  });

  app.patch('/voicemail/:id', { config: SYNC, schema: { params: idParamsSchema, body: markVoicemailBodySchema, response: { 200: voicemailSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return voicemail.mark(user.id, request.params.id, request.body.heard);
  });

  app.delete('/voicemail/:id', { config: SYNC, schema: { params: idParamsSchema } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await voicemail.delete(user.id, request.params.id);
    return reply.code(204).send();
  });
};

/** A whole file held in memory, read as the object store would give it. */
function inMemory(bytes: Buffer): AudioSource {
  return {
    head: async () => ({ bytes: bytes.length, contentType: GREETING_CONTENT_TYPE }),
    read: async (_key, range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
  };
}
