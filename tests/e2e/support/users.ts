import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

let counter = 0;

/** An address no other test uses, even across runs against the same server. */
export function uniqueEmail(label: string) {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

/** The E2E server's one administrator (ADMIN_EMAILS, support/server.ts): admin.spec.ts signs up with it. */
export const ADMIN_EMAIL = 'e2e-admin@example.com';

/** Strong enough for sign-up (decision 014: 10 characters or more, zxcvbn score 3 or more). */
export const PASSWORD = 'velvet harbour lantern 42';

/** Signs a new person up through the Auth page, as they would. Leaves the Login tab showing. */
export async function signUpThroughPage(page: Page, fullName: string, email: string, password = PASSWORD) {
  await page.goto('/auth?tab=signup');
  const panel = page.getByRole('tabpanel', { name: 'Sign Up' });
  await panel.getByLabel('Full Name').fill(fullName);
  await panel.getByLabel('Email').fill(email);
  await panel.getByLabel('Password').fill(password);
  // As a person would, reads the strength verdict before sending. Typing the password loads and
  // runs the checker (zxcvbn's 1.6 MB of dictionaries) in the page, which holds its main thread for
  // seconds when four Chromiums share two cores, as in receiving.spec.ts.
  await expect(panel.getByText(/^(Strong|Very strong) password\.$/)).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Account created')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
}

export async function logInThroughPage(page: Page, email: string, password = PASSWORD) {
  const panel = page.getByRole('tabpanel', { name: 'Login' });
  await panel.getByLabel('Email').fill(email);
  await panel.getByLabel('Password').fill(password);
  await panel.getByRole('button', { name: 'Log in' }).click();
}
