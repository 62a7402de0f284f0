import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { assertObjectKey } from './object-key';
import type { ObjectStore } from './object-store';
import { StorageUnavailableError } from './storage-unavailable-error';

export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, …); unset: AWS. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`: most self-hosted servers need it. */
  forcePathStyle: boolean;
}

/** How long a request may take before the store counts as away and the file stays in the spool. */
const REQUEST_TIMEOUT_MS = 15_000;

function isMissing(error: unknown) {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

/**
 * Objects in an S3 bucket, shared by every instance. Objects are private (no ACL is granted): the
 * browser reaches them only through the app's routes.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      maxAttempts: 2,
      requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: 5_000 },
    });
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    assertObjectKey(key);
    // PutObject needs the length up front; the files are small (minutes of Opus), so a stream is read whole.
    const bytes = Buffer.isBuffer(body) ? body : Buffer.concat(await body.toArray());
    await this.send(`store "${key}"`, () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length })));
  }

  async head(key: string): Promise<{ bytes: number; contentType: string } | null> {
    assertObjectKey(key);
    const answer = await this.send(`look up "${key}"`, () => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
    if (!answer) return null;
    return { bytes: answer.ContentLength ?? 0, contentType: answer.ContentType ?? 'application/octet-stream' };
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    assertObjectKey(key);
    const answer = await this.send(`read "${key}"`, () =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined })),
    );
    if (!answer?.Body) return null;
    return answer.Body instanceof Readable ? answer.Body : Readable.fromWeb(answer.Body.transformToWebStream() as never);
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.send(`delete "${key}"`, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  /** The answer, null for a missing object, or a StorageUnavailableError naming what failed. */
  private async send<T>(what: string, request: () => Promise<T>): Promise<T | null> {
    try {
      return await request();
    } catch (error) {
      if (isMissing(error)) return null;
      throw new StorageUnavailableError(`could not ${what} in bucket "${this.bucket}": ${(error as Error).message}`, { cause: error });
    }
  }
}
