import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

describe('/api/v1/preferences', () => {
  it('needs a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    expect((await anonymous.get('/api/v1/preferences')).statusCode).toBe(401);
    expect((await anonymous.patch('/api/v1/preferences', { darkMode: false })).statusCode).toBe(401);
  });

  it('starts from the defaults of docs/product.md §3 and saves changes per user', async () => {
    const ada = await newSignedInUser(testApp.app);
    const bob = await newSignedInUser(testApp.app);
    const defaults = { darkMode: true, notifications: true, callHistory: true, dataUsage: false, autoAnswer: false, recordCalls: false };
    expect((await ada.browser.get('/api/v1/preferences')).json()).toEqual(defaults);

    const saved = await ada.browser.patch('/api/v1/preferences', { darkMode: false, dataUsage: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ ...defaults, darkMode: false, dataUsage: true });
    const again = await ada.browser.patch('/api/v1/preferences', { autoAnswer: true, recordCalls: true });
    expect(again.json()).toEqual({ ...defaults, darkMode: false, dataUsage: true, autoAnswer: true, recordCalls: true });

    expect((await bob.browser.get('/api/v1/preferences')).json()).toEqual(defaults);
  });

  it.each([
    ['a value of the wrong type', { darkMode: 'yes' }],
    ['an unknown field', { volume: 11 }],
    ['nothing', {}],
  ])('refuses %s with 400, changing nothing', async (_label, body) => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.patch('/api/v1/preferences', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_input');
    expect((await browser.get('/api/v1/preferences')).json().darkMode).toBe(true);
  });
});
