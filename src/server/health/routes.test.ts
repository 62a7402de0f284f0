import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../tests/support/test-app';

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
