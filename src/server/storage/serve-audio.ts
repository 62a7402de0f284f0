import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { StoredAudio } from './audio-spool';
import { StorageUnavailableError } from './storage-unavailable-error';

export interface ServeAudioOptions {
  contentType: string;
  /** The name a download is saved under. */
  filename: string;
  /** Saved rather than played: Content-Disposition: attachment. */
  download: boolean;
}

const STORE_AWAY = 'The audio cannot be reached right now. Try again in a minute.';

/**
 * The bytes a Range header asks of a file of `size` bytes: one range (`a-b`, `a-`, `-n`), null
 * for the whole file (no header, or one this does not serve, such as several ranges), or
 * 'unsatisfiable' when it starts past the end.
 */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from, to] = match as unknown as [string, string, string];
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** `filename` as Content-Disposition carries it: ASCII for every client, UTF-8 for those that read it. */
function disposition(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Streams `key` from `audio` with HTTP range requests, as audio elements seek: 206 and
 * Content-Range for a range, 416 for one past the end, 200 with the whole file otherwise; 404 when
 * there is no such file and 503 when the store is away. Never cached: the audio is private.
 */
export async function serveStoredAudio(request: FastifyRequest, reply: FastifyReply, audio: StoredAudio, key: string, options: ServeAudioOptions) {
  try {
    const found = await audio.head(key);
    if (!found) throw AppError.notFound('There is no audio for this');
    reply.header('Accept-Ranges', 'bytes').header('Cache-Control', 'private, no-store').header('Content-Type', options.contentType);
    if (options.download) reply.header('Content-Disposition', disposition(options.filename));
    const range = parseRange(request.headers.range, found.bytes);
    if (range === 'unsatisfiable') {
      const body: ApiErrorBody = { error: { code: 'range_not_satisfiable', message: `The range asked for is outside the ${found.bytes} bytes of the file` } };
      return reply.code(416).header('Content-Range', `bytes */${found.bytes}`).header('Content-Type', 'application/json; charset=utf-8').send(body);
    }
    const stream = await audio.read(key, range ?? undefined);
    if (!stream) throw AppError.notFound('There is no audio for this');
    if (range) {
      reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${found.bytes}`).header('Content-Length', range.end - range.start + 1);
    } else {
      reply.code(200).header('Content-Length', found.bytes);
    }
    return reply.send(stream);
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw new AppError(503, 'storage_unavailable', STORE_AWAY, undefined, { cause: error });
    throw error;
  }
}
