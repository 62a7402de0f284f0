import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp, type TestAppOptions } from './test-app';
import { capturingMailer } from './test-browser';

/** Whether there are a PostgreSQL database and a Redis for two instances to share (TEST_DATABASE_URL, TEST_REDIS_URL). */
export const canShareInstances = Boolean(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL);

export interface TwoInstances {
  one: TestApp;
  two: TestApp;
  /** The websocket base (ws://host:port) of the instance that listens. */
  ws: string;
}

/**
 * Two instances of the app as behind a load balancer, sharing one database and the Redis: built
 * before the file's tests and closed after them. Only `listening` opens a port (tests reach the
 * other through inject); it is read from the returned object once the tests run.
 */
export function twoInstances({ listening, env = {}, ...options }: Pick<TestAppOptions, 'callTiming' | 'env' | 'recordingStorage'> & { listening: 'one' | 'two' }): TwoInstances {
  const instances = {} as TwoInstances;
  beforeAll(async () => {
    const shared = { ...options, env: { REDIS_URL: process.env.TEST_REDIS_URL ?? '', ...env } };
    instances.one = await buildTestApp({ ...shared, mailer: capturingMailer() });
    instances.two = await buildTestApp({ ...shared, mailer: capturingMailer(), database: instances.one.database });
    const [listener, other] = listening === 'one' ? [instances.one, instances.two] : [instances.two, instances.one];
    instances.ws = (await listener.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    await other.app.ready();
  });
  afterAll(async () => {
    await instances.two?.close();
    await instances.one?.close();
  });
  return instances;
}
