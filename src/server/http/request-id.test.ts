import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { openTestDatabase } from '../../../tests/support/test-database';
import type { DatabaseHandle } from '../db/client';

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/;

let database: DatabaseHandle;
const apps: TestApp[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await Promise.all(apps.map((testApp) => testApp.close()));
  await database.close();
});

async function appTrusting(trustProxy: string) {
  const testApp = await buildTestApp({ database, env: { TRUST_PROXY: trustProxy } });
  apps.push(testApp);
  return testApp.app;
}

describe('X-Request-Id', () => {
  it('names each answer’s request with a new UUID, an error’s too, whose body keeps its shape', async () => {
    const app = await appTrusting('false');
    const ok = await app.inject({ method: 'GET', url: '/api/v1/health/live' });
    const again = await app.inject({ method: 'GET', url: '/api/v1/health/live' });
    expect(ok.headers['x-request-id']).toMatch(UUID);
    expect(again.headers['x-request-id']).toMatch(UUID);
    expect(again.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);

    const refused = await app.inject({ method: 'GET', url: '/api/v1/calls' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(UUID);
    expect(Object.keys(refused.json())).toEqual(['error']);
    expect(Object.keys(refused.json().error).sort()).toEqual(['code', 'message']);

    const missing = await app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(UUID);
  });

  it('ignores the id a client sends unless TRUST_PROXY trusts the peer', async () => {
    const sent = { 'x-request-id': 'proxy-7f3a9c' };
    const untrusting = await appTrusting('false');
    expect((await untrusting.inject({ method: 'GET', url: '/api/v1/health/live', headers: sent })).headers['x-request-id']).toMatch(UUID);

    const trustingAll = await appTrusting('true');
    expect((await trustingAll.inject({ method: 'GET', url: '/api/v1/health/live', headers: sent })).headers['x-request-id']).toBe('proxy-7f3a9c');

    const trustingOne = await appTrusting('10.0.0.0/8,192.0.2.1');
    const from = async (remoteAddress: string) =>
      (await trustingOne.inject({ method: 'GET', url: '/api/v1/health/live', headers: sent, remoteAddress })).headers['x-request-id'];
    expect(await from('10.1.2.3')).toBe('proxy-7f3a9c');
    expect(await from('::ffff:192.0.2.1')).toBe('proxy-7f3a9c');
    expect(await from('203.0.113.9')).toMatch(UUID);
  });

  it('replaces a trusted proxy’s id that could forge a log line or is too long', async () => {
    const app = await appTrusting('true');
    for (const given of ['two words', 'line\u2028break', '<script>', 'x'.repeat(129)]) {
      const answer = await app.inject({ method: 'GET', url: '/api/v1/health/live', headers: { 'x-request-id': given } });
      expect(answer.headers['x-request-id'], given).toMatch(UUID);
    }
  });
});
