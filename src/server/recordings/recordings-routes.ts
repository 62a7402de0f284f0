import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordingAudioQuerySchema, recordingIdParamsSchema, recordingListSchema, storageUsageSchema } from '../../common/api/recordings';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import type { AudioSpool } from '../storage/audio-spool';
import { serveStoredAudio } from '../storage/serve-audio';
import { RECORDING_CONTENT_TYPE } from './recording-rows';
import { deleteRecording, listRecordings, playableRecording, storageUsage } from './recordings-service';

/** The name a downloaded recording is saved under: when the call was, in UTC, to the second. */
function recordingFilename(startedAt: Date): string {
  return `voxline-recording-${startedAt.toISOString().slice(0, 19).replace('T', '-').replaceAll(':', '')}.ogg`;
}

/** The owner's recordings, their audio (with byte ranges), deletion, and the storage they take (docs/api.md, "Recordings and storage"). */
export const recordingsRoutes: FastifyPluginAsyncZod<{ auth: Auth; db: Database; audio: AudioSpool }> = async (app, { auth, db, audio }) => {
  app.get('/recordings', { schema: { response: { 200: recordingListSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return { recordings: await listRecordings(db, user.id) };
  });

  app.get('/recordings/:id/audio', { schema: { params: recordingIdParamsSchema, querystring: recordingAudioQuerySchema } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const recording = await playableRecording(db, user.id, request.params.id);
    return serveStoredAudio(request, reply, audio, recording.objectKey, {
      contentType: RECORDING_CONTENT_TYPE,
      filename: recordingFilename(recording.startedAt),
      download: request.query.download === '1',
    });
  });

  app.delete('/recordings/:id', { config: { sync: ['recordings'] }, schema: { params: recordingIdParamsSchema, response: { 204: z.null() } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await deleteRecording(db, audio, user.id, request.params.id);
    return reply.code(204).send(null);
  });

  app.get('/storage', { schema: { response: { 200: storageUsageSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return storageUsage(db, user.id);
  });
};
