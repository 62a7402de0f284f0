import { expect } from 'vitest';
import type { HttpBrowser } from './http-browser';
import { SUCCESS_CARD } from './sandbox-checkout';

/**
 * Buys Premium for the signed-in `browser` at the server process at `serverUrl`, as a person does:
 * the payment session, the sandbox checkout's card form with the test card, then the verification
 * that activates the plan.
 */
export async function payForPremium(serverUrl: string, browser: HttpBrowser) {
  const session = await browser.post(`${serverUrl}/api/v1/payments`, { planType: 'premium' });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  const { reference, paymentUrl } = session.body as { reference: string; paymentUrl: string };
  // The checkout page is a provider's, reached through the public address; its path is the same on this process.
  const paid = await fetch(`${serverUrl}${new URL(paymentUrl).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(SUCCESS_CARD).toString(),
    redirect: 'manual',
  });
  expect(paid.status, await paid.text()).toBe(303);
  const verified = await browser.post(`${serverUrl}/api/v1/payments/${reference}/verify`);
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  expect(verified.body).toMatchObject({ verified: true, planType: 'premium' });
}
