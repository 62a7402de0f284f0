import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { createRedisClient } from '../redis/redis-client';
import { AppError } from './app-error';
import { RedisRateLimiter } from './rate-limiter';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
  const { app } = testApp;
  // Public, so that these answers come from the error handler and not from the session check.
  const config = { public: true };
  app.post('/api/v1/test/echo', { config, schema: { body: z.object({ name: z.string().max(5) }).strict() } }, async (request) => request.body);
  app.get('/api/v1/test/boom', { config }, async () => {
    throw new Error('secret internals at /srv/app.ts:12');
  });
  app.get('/api/v1/test/app-error', { config }, async () => {
    throw AppError.conflict('Number no longer available');
  });
  app.get('/api/v1/test/database-down', { config }, async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get('/api/v1/test/redis-down', { config }, async () => {
    throw Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' });
  });
  app.get('/api/v1/test/rate-limit-without-redis', { config }, async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    try {
      await new RedisRateLimiter(unreachable).hit('sign-in:ip:10.0.0.1', { limit: 5, windowMs: 60_000 });
    } finally {
      unreachable.disconnect();
    }
  });
  await app.ready();
});

afterAll(() => testApp.close());

describe('the error shape', () => {
  it('answers a malformed JSON body with 400 invalid_json, even on an unknown route', async () => {
    for (const url of ['/api/v1/anything', '/api/v1/test/echo']) {
      const response = await testApp.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'invalid_json', message: 'The request body is not valid JSON' } });
    }
  });

  it('names the bad field of a body that fails its schema', async () => {
    const tooLong = await testApp.app.inject({ method: 'POST', url: '/api/v1/test/echo', payload: { name: 'abcdefgh' } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(tooLong.json().error.message).toMatch(/^name: /);

    const unknownField = await testApp.app.inject({ method: 'POST', url: '/api/v1/test/echo', payload: { name: 'ab', admin: true } });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error.code).toBe('invalid_input');
  });

  it('answers an unknown API route with 404 in the error shape, without repeating the path', async () => {
    const notFound = { error: { code: 'not_found', message: 'There is nothing at this address: check the method and the path.' } };
    for (const [method, url] of [
      ['GET', '/api/v1/nope<script>'],
      ['DELETE', '/api/v1/contacts'],
      ['POST', '/functions/v1/nope'],
      ['GET', '/api/v1/providers/vonage/nope'],
      ['PUT', '/sandbox/nope'],
    ] as const) {
      const response = await testApp.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json(), `${method} ${url}`).toEqual(notFound);
    }
  });

  it('hides the details of an unexpected error', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
    expect(response.body).not.toContain('secret');
  });

  it('passes an AppError through with its status, code and message', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/test/app-error' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: { code: 'conflict', message: 'Number no longer available' } });
  });

  it('answers 503 when the database cannot be reached', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/test/database-down' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('database_unavailable');
  });

  it('answers 503 naming Redis when Redis cannot be reached, also through a rate limit that needed it', async () => {
    for (const url of ['/api/v1/test/redis-down', '/api/v1/test/rate-limit-without-redis']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: { code: 'redis_unavailable', message: 'The shared store (Redis) is unavailable right now. Please try again shortly.' },
      });
    }
  });
});
