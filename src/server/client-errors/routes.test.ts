import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../tests/support/test-app';
import { installErrorHandling } from '../http/error-handler';
import { MemoryRateLimiter } from '../http/rate-limiter';
import { clientErrorRoutes } from './routes';

const report = { route: '/contacts', message: 'Cannot read properties of undefined', stack: 'TypeError: Cannot read…\n    at ContactsPage (contacts-page.tsx:12:3)' };

/** The route alone, with the app's error handling and a logger whose lines the test reads. */
async function routeWithLog() {
  const lines: string[] = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await app.register(clientErrorRoutes, { prefix: '/api/v1', rateLimiter: new MemoryRateLimiter() });
  const post = (body: unknown, ip = '203.0.113.7') => app.inject({ method: 'POST', url: '/api/v1/client-errors', payload: body as object, remoteAddress: ip });
  const warnings = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.level === 40);
  return { app, post, warnings };
}

describe('POST /api/v1/client-errors', () => {
  it('logs the report at warn with the route and the request id, and answers 204 with nothing echoed', async () => {
    const { app, post, warnings } = await routeWithLog();
    const response = await post({ ...report, route: '/auth?tab=updatePassword&token=secret-token' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const [warning, ...others] = warnings();
    expect(others).toEqual([]);
    expect(warning).toMatchObject({ msg: 'a page failed in the browser', reqId: expect.any(String), clientError: { ...report, route: '/auth' } });
    expect(JSON.stringify(warnings())).not.toContain('secret-token');
    await app.close();
  });

  it('answers 400 naming the field of a bad report, and logs no warning', async () => {
    const { app, post, warnings } = await routeWithLog();
    const cases: [unknown, string][] = [
      [{ message: 'x' }, 'route'],
      [{ route: '/', message: 'x'.repeat(1001) }, 'message'],
      [{ route: '/', message: 'x', stack: 42 }, 'stack'],
      [{ route: '/\u0000', message: 'x' }, 'route'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_input', field });
    }
    expect(warnings()).toEqual([]);
    await app.close();
  });

  it('answers 429 past 20 reports in ten minutes from one address, and still takes reports from another', async () => {
    const { app, post, warnings } = await routeWithLog();
    for (let sent = 0; sent < 20; sent += 1) expect((await post(report)).statusCode).toBe(204);
    const refused = await post(report);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBeDefined();
    expect(warnings()).toHaveLength(20);
    expect((await post(report, '198.51.100.9')).statusCode).toBe(204);
    await app.close();
  });

  it('needs no session in the app', async () => {
    const testApp = await buildTestApp();
    try {
      const response = await testApp.app.inject({ method: 'POST', url: '/api/v1/client-errors', headers: { origin: 'http://localhost:3000' }, payload: report });
      expect(response.statusCode).toBe(204);
    } finally {
      await testApp.close();
    }
  });
});
