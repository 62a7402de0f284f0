import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';

// With REDIS_URL, instances behind one load balancer count failures together: ten wrong passwords for
// one account from one address, spread over two instances, stop that address on both, and only that one.
describe.skipIf(!process.env.TEST_REDIS_URL)('rate limits shared through Redis', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    one = await buildTestApp({ env, mailer: capturingMailer() });
    two = await buildTestApp({ env, mailer: capturingMailer(), database: one.database });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('count failed sign-ins for one account from one address across instances', { timeout: 90_000 }, async () => {
    const email = uniqueEmail('shared-limit');
    expect((await new TestBrowser(one.app).post('/api/v1/auth/sign-up', { fullName: 'Owner', email, password: TEST_PASSWORD })).statusCode).toBe(201);
    // One attacker, one address (a network of its own: Redis keeps counts between runs), whichever
    // instance the load balancer picks.
    const address = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::7`;
    const attacker = (app: TestApp, password: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in',
        remoteAddress: address,
        headers: { origin: 'http://localhost:3000' },
        payload: { email, password },
      });
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push((await attacker(i % 2 === 0 ? one : two, `guess ${i}`)).statusCode);
    expect(answers).toEqual([...Array<number>(9).fill(401), 429]);

    const refused = await attacker(one, TEST_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/^Too many failed sign-in attempts from this device\. Try again in \d+ minutes\.$/);
    for (const app of [one, two]) expect((await new TestBrowser(app.app).post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});
