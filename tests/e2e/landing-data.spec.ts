import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/**
 * The page a visit lands on asks for its data while its chunks load (src/web/router.tsx,
 * src/web/lib/early-requests.ts), and reads those answers rather than asking again.
 */

/** The /api/v1 GETs the page sends, by path, in order. */
function apiGets(page: Page) {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/v1/')) paths.push(url.pathname.slice('/api/v1'.length));
  });
  return paths;
}

const LANDINGS = [
  { path: '/dialer', chunk: /\/assets\/dialer-page-[^/]+\.js$/, data: ['/subscription/minutes', '/numbers', '/subscription'], heading: 'Dialer' },
  { path: '/call-settings', chunk: /\/assets\/call-settings-page-[^/]+\.js$/, data: ['/numbers', '/calls/lines', '/voice-settings'], heading: 'Call Settings' },
] as const;

test('a signed-in page asks for its data before its code has loaded, and once', async ({ page }) => {
  const email = uniqueEmail('landing-data');
  await signUpThroughPage(page, 'Early Bird', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);

  for (const landing of LANDINGS) {
    // The page's own chunk is held until its data has been asked for: the page's code cannot have asked.
    let releaseChunk: () => void = () => undefined;
    const chunkHeld = new Promise<void>((resolve) => (releaseChunk = resolve));
    const holdChunk = async (route: Route) => {
      await chunkHeld;
      await route.continue();
    };
    await page.route(landing.chunk, holdChunk);
    const gets = apiGets(page);

    await page.goto(landing.path);
    await expect.poll(() => landing.data.every((path) => gets.includes(path)), { message: `${landing.path} asked for ${gets.join(', ')}` }).toBe(true);
    releaseChunk();

    await expect(page.getByRole('heading', { level: 1, name: landing.heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const askedTwice = gets.filter((path, index) => gets.indexOf(path) !== index);
    expect(askedTwice, `${landing.path} asked for these more than once: ${gets.join(', ')}`).toEqual([]);
    await page.unroute(landing.chunk, holdChunk);
  }
});
