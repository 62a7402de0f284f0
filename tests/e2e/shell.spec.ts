import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The app shell: title, footer, 404 page, theme, and where signed-out visitors land. */

const TITLE = 'unlimited calls everywhere';

const storageItem = (page: Page, storage: 'localStorage' | 'sessionStorage', key: string) =>
  page.evaluate(([storage, key]) => window[storage].getItem(key), [storage, key] as const);

const isHome = (url: URL) => url.pathname === '/';

test.describe('document title', () => {
  for (const path of ['/', '/contacts']) {
    test(`is "${TITLE}" on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveTitle(TITLE);
    });
  }
});

test('the footer shows the copyright notice with the current year', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('All rights reserved');
  await expect(footer).toContainText(String(new Date().getFullYear()));
});

test('an unknown page shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText('404')).toBeVisible();
  await expect(page.getByText('Oops! Page not found')).toBeVisible();

  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(isHome);
  await expect(
    page.getByRole('link', { name: 'Log in', exact: true }).or(page.getByRole('button', { name: 'Log in', exact: true })).first(),
  ).toBeVisible();
});

test.describe('theme', () => {
  test.describe('with a light system preference', () => {
    test.use({ colorScheme: 'light' });

    test('starts light', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toContainClass('light');
      await expect(page.locator('html')).not.toContainClass('dark');
    });

    test('the theme button switches to dark, and the choice survives a reload', async ({ page }) => {
      await page.goto('/');
      const root = page.locator('html');
      await page.getByRole('button', { name: 'Switch to dark mode', exact: true }).click();

      await expect(root).toContainClass('dark');
      await expect(root).not.toContainClass('light');
      await expect.poll(() => storageItem(page, 'localStorage', 'theme')).toBe('dark');
      await expect(page.getByRole('button', { name: 'Switch to light mode', exact: true })).toBeVisible();

      await page.reload();
      await expect(root).toContainClass('dark');
      await expect(root).not.toContainClass('light');
      await expect(page.getByRole('button', { name: 'Switch to light mode', exact: true })).toBeVisible();
    });
  });

  test.describe('with a dark system preference and nothing stored', () => {
    test.use({ colorScheme: 'dark' });

    test('starts dark', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toContainClass('dark');
      await expect(page.locator('html')).not.toContainClass('light');
    });
  });
});

test.describe('signed-out visitors', () => {
  test('visiting /dialer lands on the home page', async ({ page }) => {
    await page.goto('/dialer');
    await expect(page).toHaveURL(isHome);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('the payment callback keeps the reference for after sign-in and goes home', async ({ page }) => {
    await page.goto('/payment/callback?reference=abc');
    await expect(page).toHaveURL(isHome);
    await expect.poll(() => storageItem(page, 'sessionStorage', 'pendingPaymentReference')).toBe('abc');
  });

  test('visiting /settings with a payment reference keeps it and goes home', async ({ page }) => {
    await page.goto('/settings?reference=xyz');
    await expect(page).toHaveURL(isHome);
    await expect.poll(() => storageItem(page, 'sessionStorage', 'pendingPaymentReference')).toBe('xyz');
  });
});
