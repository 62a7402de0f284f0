import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../tests/support/test-app';
import { openTestDatabase } from '../../../tests/support/test-database';
import type { DatabaseHandle } from '../db/client';
import { createRedisClient } from '../redis/redis-client';
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

  async function healthWith(redis: Redis) {
    const app = Fastify().setValidatorCompiler(validatorCompiler).setSerializerCompiler(serializerCompiler);
    await app.register(healthRoutes, { database, redis });
    try {
      return await app.inject({ method: 'GET', url: '/health' });
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
});
