import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3ObjectStore } from '../../src/server/storage/s3-object-store';
import { freePort } from './free-port';

/**
 * An S3-compatible server in this process (s3rver), on a free port, with one bucket; `stop` and
 * `start` take it away and bring it back on the same port, as an outage would.
 */
export async function startS3Server(bucket = 'voxline-test') {
  const port = await freePort();
  const directory = await mkdtemp(path.join(tmpdir(), 'voxline-s3-'));
  const options = { address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] };
  let server: S3rver | null = new S3rver(options);
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    store: () => new S3ObjectStore({ bucket, region: 'us-east-1', endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }),
    async stop() {
      await server?.close();
      server = null;
    },
    async start() {
      server = new S3rver(options);
      await server.run();
    },
    async close() {
      await server?.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
