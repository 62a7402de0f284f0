import { expect } from 'vitest';
import type { App } from '../../src/server/app';
import type { TestBrowser } from './test-browser';

export const SUCCESS_CARD = { card: '4084 0840 8408 4081', expiry: '12/30', cvv: '408' };
export const DECLINED_CARD = { card: '4084 0800 0000 5408', expiry: '12/30', cvv: '001' };

/** Starts a payment for the plan through the API; answers the session (reference and checkout URL). */
export async function startPayment(browser: TestBrowser, body: Record<string, unknown> = { planType: 'premium' }) {
  const response = await browser.post('/api/v1/payments', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { reference: string; paymentUrl: string; planType: string; amountUsd: string; amountNgn: string };
}

/** Submits the sandbox checkout's card form as a browser would; answers the response (a 303 to the callback on success or decline). */
export function submitCheckout(app: App, paymentUrl: string, form: Record<string, string>) {
  const { pathname } = new URL(paymentUrl);
  return app.inject({
    method: 'POST',
    url: pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

/** Pays at the sandbox checkout with a test card; answers where the browser is sent back. */
export async function payAtCheckout(app: App, paymentUrl: string, form: Record<string, string> = SUCCESS_CARD): Promise<URL> {
  const response = await submitCheckout(app, paymentUrl, form);
  expect(response.statusCode, response.body).toBe(303);
  return new URL(response.headers.location as string);
}

/** Leaves the sandbox checkout with Cancel; answers where the browser is sent back. */
export async function cancelCheckout(app: App, paymentUrl: string): Promise<URL> {
  const response = await app.inject({ method: 'POST', url: `${new URL(paymentUrl).pathname}/cancel` });
  expect(response.statusCode, response.body).toBe(303);
  return new URL(response.headers.location as string);
}
