import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';

// With REDIS_URL, instances behind one load balancer count attempts together: ten wrong passwords
// for one address spread over two instances lock it on both.
describe.skipIf(!process.env.TEST_REDIS_URL)('rate limits shared through Redis', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    [one, two] = await Promise.all([buildTestApp({ env, mailer: capturingMailer() }), buildTestApp({ env, mailer: capturingMailer() })]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('count sign-in attempts for one email across instances', async () => {
    const email = uniqueEmail('shared-limit');
    const attempt = (app: TestApp) => new TestBrowser(app.app).post('/api/v1/auth/sign-in', { email, password: 'not the password' });
    for (let i = 0; i < 10; i += 1) expect((await attempt(i % 2 === 0 ? one : two)).statusCode).toBe(401);
    const refused = [await attempt(one), await attempt(two)];
    expect(refused.map((response) => response.statusCode)).toEqual([429, 429]);
    expect(refused[1]!.json().error.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
  });
});
