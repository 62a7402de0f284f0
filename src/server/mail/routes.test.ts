import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { TestBrowser, uniqueEmail } from '../../../tests/support/test-browser';

describe('the outbox (no SMTP_URL)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(() => testApp.close());

  it('keeps each message with its links and lists them, newest first', async () => {
    const email = uniqueEmail('outbox');
    await new TestBrowser(testApp.app).post('/api/v1/auth/sign-up', { fullName: 'Outbox Test', email, password: 'a good password' });
    await new TestBrowser(testApp.app).post('/api/v1/auth/password-reset', { email });

    const listing = await testApp.app.inject({ method: 'GET', url: '/api/v1/dev/outbox' });
    expect(listing.statusCode).toBe(200);
    const mine = listing.json().messages.filter((m: { to: string }) => m.to === email);
    expect(mine.map((m: { subject: string }) => m.subject)).toEqual(['Reset your Voxline password', 'Confirm your Voxline email address']);
    expect(mine[0].links[0]).toMatch(/^http:\/\/localhost:3000\/auth\?tab=updatePassword&token=/);

    const page = await testApp.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Reset your Voxline password');
    expect(page.body).toContain(email);
  });
});

describe('in production', () => {
  it('does not serve the outbox', async () => {
    const production = await buildTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://voxline.example' } });
    try {
      const listing = await production.app.inject({ method: 'GET', url: '/api/v1/dev/outbox' });
      expect(listing.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
