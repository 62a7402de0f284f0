import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { buildTestApp } from '../../../tests/support/test-app';
import { redisRelay } from '../../../tests/support/redis-relay';
import { capturingMailer } from '../../../tests/support/test-browser';
import { buildApp } from '../app';
import { calls } from './schema';

describe('a server shutting down', () => {
  it('ends the calls it carries and finalises their records', async () => {
    const testApp = await buildTestApp({ mailer: capturingMailer() });
    const { browser } = await newSignedInUser(testApp.app);
    const number = await rentANumber(browser);
    const { call } = (await browser.post('/api/v1/calls', { from: number, to: '+14155550100' })).json();
    expect(call.state).toBe('answered');

    await testApp.app.close();
    const [row] = await testApp.database.db.select().from(calls).where(eq(calls.id, call.id));
    expect(row).toMatchObject({ state: 'ended', outcome: 'completed', reason: 'The server is shutting down' });
    await testApp.database.close();
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('while Redis is away still ends its calls and closes, instead of stopping at the first step that fails', async () => {
    const relay = await redisRelay(process.env.TEST_REDIS_URL!);
    const testApp = await buildTestApp({ mailer: capturingMailer(), env: { REDIS_URL: relay.url } });
    try {
      const { browser } = await newSignedInUser(testApp.app);
      const number = await rentANumber(browser);
      const { call } = (await browser.post('/api/v1/calls', { from: number, to: '+14155550100' })).json();
      await relay.cut();

      await testApp.app.close();
      const [row] = await testApp.database.db.select().from(calls).where(eq(calls.id, call.id));
      expect(row).toMatchObject({ state: 'ended', reason: 'The server is shutting down' });
    } finally {
      await relay.cut();
      await testApp.database.close();
    }
  });

  it('closes records a stopped server left open when the next one starts', async () => {
    const first = await buildTestApp({ mailer: capturingMailer() });
    const { browser, userId } = await newSignedInUser(first.app);
    const number = await rentANumber(browser);
    await first.database.db.insert(calls).values({
      conversationId: crypto.randomUUID(),
      userId,
      direction: 'outbound',
      fromNumber: number,
      toNumber: '+442079460958',
      state: 'answered',
      answeredAt: new Date(Date.now() - 5_000),
      metered: true,
    });
    // The next server on the same database.
    const next = await buildApp({ config: first.config, database: first.database, logger: false, mailer: capturingMailer() });
    await next.ready();
    const [row] = await first.database.db.select().from(calls).where(eq(calls.userId, userId));
    expect(row).toMatchObject({ state: 'ended', outcome: 'failed', reason: 'The call was cut off when its server stopped' });
    await next.close();
    await first.close();
  });
});
