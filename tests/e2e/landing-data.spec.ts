import type { Page, Route } from '@playwright/test';
import { LANDINGS as PAGE_LANDINGS } from '../../src/web/landing/landing-routes';
import { expect, test } from './fixtures';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/**
 * The page a visit lands on asks for its chunks and its data as its HTML is read, before any of the
 * app's modules has run (src/web/landing), and reads those answers rather than asking again
 * (src/web/lib/early-requests.ts).
 */

/** The /api/v1 GETs the page sends, by path, in order, and every URL it requests. */
function requestsOf(page: Page) {
  const gets: string[] = [];
  const urls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    urls.push(url.pathname);
    if (request.method() === 'GET' && url.pathname.startsWith('/api/v1/')) gets.push(url.pathname.slice('/api/v1'.length));
  });
  return { gets, urls };
}

const ENTRY_CHUNK = /\/assets\/index-[^/]+\.js$/;

// The data each page names in src/web/landing/landing-routes.ts, whose script asks for it.
const LANDINGS = [
  { path: '/dialer', chunk: /\/assets\/dialer-page-[^/]+\.js$/, data: PAGE_LANDINGS['/dialer']!.data, heading: 'Dialer' },
  { path: '/call-settings', chunk: /\/assets\/call-settings-page-[^/]+\.js$/, data: PAGE_LANDINGS['/call-settings']!.data, heading: 'Call Settings' },
] as const;

test("a signed-in page asks for its chunks and data before the app's code has run, and for each path once", async ({ page }) => {
  const email = uniqueEmail('landing-data');
  await signUpThroughPage(page, 'Early Bird', email);
  // The dialer the log-in opens must have had its answers before the first visit is counted: its
  // GETs, still on their way as the URL changed, were counted with that visit's (and aborted by it).
  const dialerAnswered = Promise.all(PAGE_LANDINGS['/dialer']!.data.map((path) => page.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1${path}`)));
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await dialerAnswered;

  for (const landing of LANDINGS) {
    // The app's entry chunk is held until the page's chunk and data have been asked for: no module of the app can have asked.
    let releaseEntry: () => void = () => undefined;
    const entryHeld = new Promise<void>((resolve) => (releaseEntry = resolve));
    const holdEntry = async (route: Route) => {
      await entryHeld;
      await route.continue();
    };
    await page.route(ENTRY_CHUNK, holdEntry);
    const { gets, urls } = requestsOf(page);

    // Not waiting for the page's load event, which waits for the held entry.
    await page.goto(landing.path, { waitUntil: 'commit' });
    await expect.poll(() => landing.data.every((path) => gets.includes(path)), { message: `${landing.path} asked for ${gets.join(', ')}` }).toBe(true);
    await expect.poll(() => urls.some((url) => landing.chunk.test(url)), { message: `${landing.path} requested ${urls.join(', ')}` }).toBe(true);
    releaseEntry();

    await expect(page.getByRole('heading', { level: 1, name: landing.heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const askedTwice = gets.filter((path, index) => gets.indexOf(path) !== index);
    expect(askedTwice, `${landing.path} asked for these more than once: ${gets.join(', ')}`).toEqual([]);
    await page.unroute(ENTRY_CHUNK, holdEntry);
  }
});
