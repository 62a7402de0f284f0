import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The theme before any module script runs (issue 22 item 7), and the error screen of a page whose chunk is gone (item 5). */

/** Records what the Content-Security-Policy refused: Chromium says so on the console. */
function cspViolations(page: Page) {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  return violations;
}

test.describe('the theme before the first paint', () => {
  test.use({ colorScheme: 'light' });

  test('a stored dark theme is on <html> with every module script blocked, allowed by the policy', async ({ page }) => {
    const violations = cspViolations(page);
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    const blocked: string[] = [];
    await page.route(/\/assets\/[^/]+\.js$/, (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });

    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    const root = page.locator('html');
    await expect(root).toContainClass('dark');
    await expect(root).not.toContainClass('light');
    expect(await root.evaluate((element) => element.style.colorScheme)).toBe('dark');
    expect(blocked.length).toBeGreaterThan(0);
    // Only index.html's own waiting text: no module drew anything.
    await expect(page.locator('#root')).toHaveText('Loading...');
    await expect(page.getByRole('status')).toHaveText('Loading...');
    expect(violations).toEqual([]);
  });
});

test.describe('a page whose chunk is gone after a deploy', () => {
  test('reloads once, then shows the error screen, and reports it to the server', async ({ page }) => {
    await page.route(/\/assets\/home-page-[^/]+\.js$/, (route) => route.abort());
    let documentLoads = 0;
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documentLoads += 1;
    });
    const reported = page.waitForRequest((request) => request.url().endsWith('/api/v1/client-errors') && request.method() === 'POST');

    await page.goto('/');
    const heading = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(page.getByText('Voxline was updated while this page was open')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    expect(documentLoads).toBe(2);
    expect((await reported).postDataJSON()).toMatchObject({ route: '/', message: expect.stringContaining('dynamically imported module') });
  });
});
