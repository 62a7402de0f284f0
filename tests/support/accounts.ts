import { expect } from 'vitest';
import type { App } from '../../src/server/app';
import { TestBrowser, uniqueEmail } from './test-browser';

/** Strong enough for sign-up (decision 014: 10 characters or more, zxcvbn score 3 or more). */
export const TEST_PASSWORD = 'velvet harbour lantern 42';

/** Signs a new user up and in; returns their browser and address. */
export async function newSignedInUser(app: App, fullName = 'Test User') {
  const email = uniqueEmail();
  const signUp = await new TestBrowser(app).post('/api/v1/auth/sign-up', { fullName, email, password: TEST_PASSWORD });
  expect(signUp.statusCode, signUp.body).toBe(201);
  const browser = new TestBrowser(app);
  const signIn = await browser.post('/api/v1/auth/sign-in', { email, password: TEST_PASSWORD });
  expect(signIn.statusCode, signIn.body).toBe(200);
  return { browser, email, userId: signIn.json().user.id as string };
}

/** Rents the first US number the carrier offers to the signed-in user of `browser`; answers it in E.164. */
export async function rentANumber(browser: TestBrowser, pattern = ''): Promise<string> {
  const offers = await browser.get(`/api/v1/numbers/available?country=US${pattern ? `&pattern=${pattern}` : ''}`);
  expect(offers.statusCode, offers.body).toBe(200);
  const [offer] = offers.json().numbers as { phoneNumber: string }[];
  const rented = await browser.post('/api/v1/numbers', { country: 'US', phoneNumber: offer!.phoneNumber });
  expect(rented.statusCode, rented.body).toBe(201);
  return rented.json().phoneNumber as string;
}
