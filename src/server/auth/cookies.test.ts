import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../../tests/support/accounts';
import { productionEnv } from '../../../tests/support/production-env';
import { buildTestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';

describe('session cookies in production behind HTTPS', () => {
  it('are Secure, httpOnly and SameSite=Lax', async () => {
    const production = await buildTestApp({ env: productionEnv, mailer: capturingMailer() });
    try {
      const email = uniqueEmail('secure');
      const origin = 'https://voxline.example';
      await new TestBrowser(production.app, origin).post('/api/v1/auth/sign-up', { fullName: 'Secure', email, password: TEST_PASSWORD });
      const response = await new TestBrowser(production.app, origin).post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
      expect(response.statusCode, response.body).toBe(200);
      const cookie = response.cookies.find((c) => c.name.endsWith('voxline.session_token'));
      expect(cookie).toMatchObject({ name: '__Secure-voxline.session_token', secure: true, httpOnly: true, sameSite: 'Lax' });
    } finally {
      await production.close();
    }
  });
});
