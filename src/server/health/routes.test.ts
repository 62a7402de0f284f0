import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { freePort } from '../../../tests/support/free-port';
import { redisRelay } from '../../../tests/support/redis-relay';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { until } from '../../../tests/support/until';
import { openTestDatabase } from '../../../tests/support/test-database';
import type { DatabaseHandle } from '../db/client';
import { createRedisClient } from '../redis/redis-client';
import { Draining } from './draining';
import { healthRoutes } from './routes';

describe('GET /api/v1/health', () => {
  it('reports the database up, then down once it is closed', async () => {
    const { app, database } = await buildTestApp();
    try {
      const up = await app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ status: 'ok', database: { driver: database.driver, state: 'up' } });

      await database.close();
      const down = await app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'degraded', database: { driver: database.driver, state: 'down' } });
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/v1/health with a shared Redis', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  async function healthWith(redis: Redis, url = '/health') {
    const app = Fastify().setValidatorCompiler(validatorCompiler).setSerializerCompiler(serializerCompiler);
    await app.register(healthRoutes, { database, redis, draining: new Draining(), carriedCalls: () => 0, maxCalls: 1000 });
    try {
      return await app.inject({ method: 'GET', url });
    } finally {
      await app.close();
    }
  }

  it.skipIf(!process.env.TEST_REDIS_URL)('reports Redis up', async () => {
    const redis = createRedisClient(process.env.TEST_REDIS_URL!);
    try {
      const health = await healthWith(redis);
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', database: { driver: database.driver, state: 'up' }, redis: { state: 'up' } });
    } finally {
      redis.disconnect();
    }
  });

  it('reports Redis down as degraded, but keeps answering 200 while the database is up', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    try {
      const health = await healthWith(unreachable);
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'degraded', database: { driver: database.driver, state: 'up' }, redis: { state: 'down' } });
    } finally {
      unreachable.disconnect();
    }
  });

  it('counts the instance not ready while Redis is unreachable', async () => {
    // Nothing listens on a port just found free.
    const unreachable = createRedisClient(`redis://127.0.0.1:${await freePort()}`);
    try {
      const ready = await healthWith(unreachable, '/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, checks: { database: 'ok', redis: expect.stringMatching(/^unreachable: /), draining: 'ok', calls: 'ok' } });
    } finally {
      unreachable.disconnect();
    }
  });
});

const allOk = { database: 'ok', draining: 'ok', calls: 'ok' };

async function probe(testApp: TestApp) {
  const [live, ready] = await Promise.all([
    testApp.app.inject({ method: 'GET', url: '/api/v1/health/live' }),
    testApp.app.inject({ method: 'GET', url: '/api/v1/health/ready' }),
  ]);
  expect(live.statusCode, 'live answers whatever readiness says').toBe(200);
  expect(live.json()).toEqual({ live: true });
  return { status: ready.statusCode, body: ready.json() };
}

describe('GET /api/v1/health/live and /api/v1/health/ready', () => {
  it('are ready while the database answers, and not once it is closed', async () => {
    const testApp = await buildTestApp();
    try {
      expect(await probe(testApp)).toEqual({ status: 200, body: { ready: true, checks: allOk } });
      await testApp.database.close();
      const { status, body } = await probe(testApp);
      expect(status).toBe(503);
      expect(body).toEqual({ ready: false, checks: { ...allOk, database: expect.stringMatching(/^unreachable/) } });
    } finally {
      await testApp.app.close();
    }
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('are ready while Redis answers, not while it is away, and again once it is back', async () => {
    // The app refuses to start without its Redis: it reaches TEST_REDIS_URL through a relay whose port then closes.
    const relay = await redisRelay(process.env.TEST_REDIS_URL!);
    const testApp = await buildTestApp({ env: { REDIS_URL: relay.url } });
    try {
      expect(await probe(testApp)).toEqual({ status: 200, body: { ready: true, checks: { ...allOk, redis: 'ok' } } });
      await relay.cut();
      const { status, body } = await probe(testApp);
      expect(status).toBe(503);
      expect(body).toEqual({ ready: false, checks: { ...allOk, redis: expect.stringMatching(/^unreachable: /) } });
      await relay.restore();
      await until(async () => (await probe(testApp)).status === 200, 10_000);
    } finally {
      await testApp.close();
      await relay.cut();
    }
  });

  it('are not ready from the moment shutdown begins, which closing the app marks', async () => {
    const draining = new Draining();
    const testApp = await buildTestApp({ draining });
    try {
      draining.begin();
      expect(await probe(testApp)).toEqual({ status: 503, body: { ready: false, checks: { ...allOk, draining: 'shutting down' } } });
    } finally {
      await testApp.close();
    }

    const closed = new Draining();
    const closing = await buildTestApp({ draining: closed });
    await closing.close();
    expect(closed.active).toBe(true);
  });

  it('are not ready while the instance carries MAX_CALLS_PER_INSTANCE calls, and ready again when one ends', async () => {
    // The call waits for its audio longer than the test takes, so only the hang-up ends it.
    const testApp = await buildTestApp({ env: { MAX_CALLS_PER_INSTANCE: '1' }, callTiming: { mediaConnectTimeoutMs: 60_000 } });
    try {
      const { browser } = await newSignedInUser(testApp.app);
      const number = await rentANumber(browser);
      expect(await probe(testApp)).toEqual({ status: 200, body: { ready: true, checks: allOk } });

      const placed = await browser.post('/api/v1/calls', { from: number, to: testApp.config.SOUND_TEST_NUMBER });
      expect(placed.statusCode, placed.body).toBe(201);
      expect(await probe(testApp)).toEqual({ status: 503, body: { ready: false, checks: { ...allOk, calls: 'at capacity: 1 of 1 calls' } } });

      const hungUp = await browser.post(`/api/v1/calls/${placed.json().call.id}/hangup`, {});
      expect(hungUp.statusCode, hungUp.body).toBe(200);
      expect(await probe(testApp)).toEqual({ status: 200, body: { ready: true, checks: allOk } });
    } finally {
      await testApp.close();
    }
  });
});
