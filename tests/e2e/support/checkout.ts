import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** Paystack's published test cards, which the built-in sandbox checkout accepts (docs/providers.md#paystack). */
export const SUCCESS_CARD = { number: '4084 0840 8408 4081', expiry: '12/30', cvv: '408' };
export const DECLINED_CARD = { number: '4084 0800 0000 5408', expiry: '12/30', cvv: '001' };

/** From the Subscription tab to the sandbox checkout of a plan; answers the payment reference. */
export async function subscribe(page: Page, plan: 'Premium' | 'Platinum') {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('region', { name: plan }).getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/VXL-[0-9a-f]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Voxline Sandbox Checkout' })).toBeVisible();
  return decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
}

export async function payWith(page: Page, card: typeof SUCCESS_CARD) {
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Card Number').fill(card.number);
  await form.getByLabel('Expiry (MM/YY)').fill(card.expiry);
  await form.getByLabel('CVV').fill(card.cvv);
  await form.getByRole('button', { name: /^Pay / }).click();
}
