import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { LocalObjectStore } from './local-object-store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';

/** The store STORAGE names (docs/deploy.md#storage). */
export function createObjectStore(config: Config, log: FastifyBaseLogger): ObjectStore {
  if (config.STORAGE === 's3') {
    log.info({ bucket: config.S3_BUCKET, endpoint: config.S3_ENDPOINT ?? 'AWS' }, 'storage: S3 bucket');
    return new S3ObjectStore({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  const root = path.join(config.dataDir, 'objects');
  log.info({ root }, 'storage: local files');
  return new LocalObjectStore(root);
}
