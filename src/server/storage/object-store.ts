import type { Readable } from 'node:stream';

/**
 * Where recordings, voicemail and greetings live (issue 19): files under DATA_DIR by default, an
 * S3-compatible bucket when configured (what several instances share). Keys are the server's own
 * (for example `recordings/<userId>/<id>.ogg`); the browser never sees them and reaches an
 * object only through the app's routes, after the owner check.
 */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Stores a whole object, replacing any under the key. Fails with StorageUnavailableError. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object's size and type, or null when there is none. */
  head(key: string): Promise<{ bytes: number; contentType: string } | null>;
  /** A stream of the object, or of bytes start..end inclusive; null when there is none. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
}

/**
 * Where a recorded file stands: being written on an instance ('recording'), written but waiting
 * for the store to take it ('pending_upload'), kept ('saved'), or lost ('failed', the user is told).
 */
export type StoredAudioState = 'recording' | 'pending_upload' | 'saved' | 'failed';

/** What serving a stored file needs of its store: a greeting held in memory is one too. */
export type AudioSource = Pick<ObjectStore, 'head' | 'read'>;
