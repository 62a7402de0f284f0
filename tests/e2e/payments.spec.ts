import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DECLINED_CARD, payWith, subscribe, SUCCESS_CARD } from './support/checkout';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/** Plans and payments against the real server and its built-in sandbox checkout (PAYMENTS=sandbox). */

async function newUser(page: Page, label: string, fullName = 'Ada Lovelace') {
  const email = uniqueEmail(label);
  await signUpThroughPage(page, fullName, email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  return email;
}

const subscriptionStatus = (page: Page) => page.getByLabel('Subscription status');

test('a new user subscribes to Premium with the success test card, keeps the receipt, and sees Premium as the current plan', async ({ page }) => {
  const email = await newUser(page, 'premium');
  await expect(page.getByText('Minutes left this month: 10:00 of 10:00')).toBeVisible();

  const reference = await subscribe(page, 'Premium');
  await expect(page.getByText('₦172,000.00').first()).toBeVisible();
  await expect(page.getByText('$100.00')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await payWith(page, SUCCESS_CARD);

  // Back from the checkout on the receipt page, whose address then loses the reference.
  const receipt = page.getByRole('article', { name: 'Subscription Payment Confirmation' });
  await expect(receipt).toBeVisible();
  await expect(page).toHaveURL(/\/payment\/receipt$/);
  await expect(page.getByText('Your subscription has been activated!')).toBeVisible();
  await expect(receipt.getByText('Payment Successful')).toBeVisible();
  for (const text of [reference, 'Ada Lovelace', email, 'Premium', '$100.00', '₦172,000.00', 'Visa card ending 4081 via Voxline Sandbox (test payments)']) {
    await expect(receipt.getByText(text, { exact: true }).first()).toBeVisible();
  }

  // Download: a text file named with the brand and the reference.
  const [download] = await Promise.all([page.waitForEvent('download'), receipt.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe(`Voxline-receipt-${reference}.txt`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  const lines = text.split('\n');
  for (const line of [
    'Voxline',
    'Subscription Payment Confirmation',
    'Payment Successful',
    `Receipt Number: ${reference}`,
    'Customer: Ada Lovelace',
    `Email: ${email}`,
    'Plan: Premium',
    'Amount (USD): $100.00',
    'Amount (NGN): ₦172,000.00',
    'Payment Method: Visa card ending 4081 via Voxline Sandbox (test payments)',
    'Tier: Premium',
  ]) {
    expect(lines, line).toContain(line);
  }
  expect(text).toMatch(/^Date: \S.+$/m);
  expect(text).toMatch(/^Expires On: \S.+$/m);
  await expect(page.getByText('Receipt downloaded')).toBeVisible();

  // Printed, the receipt is all there is: no navigation, no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(receipt.getByText(reference)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(receipt.getByRole('button', { name: 'Print' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  await receipt.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
  await expect(subscriptionStatus(page)).toContainText('Premium');
  await expect(subscriptionStatus(page)).toContainText('Active');
  await expect(page.getByRole('region', { name: 'Premium' }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Platinum' }).getByRole('button', { name: 'Subscribe' })).toBeEnabled();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await expect(page.getByText('Minutes left this month: 150:00 of 150:00')).toBeVisible();
});

test('a declined card leaves the user on Free with the payment verification failure', async ({ page }) => {
  await newUser(page, 'declined');
  const reference = await subscribe(page, 'Premium');
  await payWith(page, DECLINED_CARD);

  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
  await expect(page.getByText('Payment Verification Failed', { exact: true })).toBeVisible();
  await expect(page.getByText('The payment was declined', { exact: true })).toBeVisible();
  await expect(subscriptionStatus(page)).toContainText('Free');
  await expect(subscriptionStatus(page)).toContainText('Inactive');
  for (const plan of ['Premium', 'Platinum']) await expect(page.getByRole('region', { name: plan }).getByRole('button', { name: 'Subscribe' })).toBeEnabled();

  // Coming back to the Subscription tab itself with the reference verifies it there, with the same outcome.
  await page.goto(`/settings?tab=subscription&reference=${reference}`);
  await expect(page.getByText('Payment verification failed', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
  await expect(subscriptionStatus(page)).toContainText('Free');
});

test('a payment finished while signed out is verified after log-in', async ({ page, context }) => {
  const email = await newUser(page, 'pending');
  await subscribe(page, 'Platinum');
  await context.clearCookies();
  await payWith(page, SUCCESS_CARD);

  // Signed out, the receipt page keeps the reference and sends the visitor home.
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await page.goto('/auth');
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await expect(page.getByText('Payment verified', { exact: true })).toBeVisible();
  await expect(page.getByText('Your Platinum subscription has been activated!')).toBeVisible();
  await expect(page.getByText('Unlimited minutes')).toBeVisible();
});
