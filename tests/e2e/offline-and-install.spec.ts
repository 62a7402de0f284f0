import type { BrowserContext, Page } from '@playwright/test';
import { isServerPath } from '../../src/common/server-paths';
import { expect, test } from './fixtures';
import { expectAccessible } from './support/axe';

/**
 * The installable app (issue 22 item 6): the service worker of src/web/pwa keeps the app shell for
 * offline use, shows the offline page for what it does not keep, never answers or caches the API,
 * and offers a new version after a deploy. UPDATE_SCREENSHOTS=1 also writes docs/screenshots/.
 */

test.use({ serviceWorkers: 'allow' });

/** Waits until the page's service worker has installed (precache complete) and controls it. */
async function controlledByServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
  });
}

/** The paths of everything in the page's Cache Storage, whichever cache holds it. */
function cachedPaths(page: Page) {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

async function screenshotForDocs(page: Page, name: string) {
  if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: `docs/screenshots/${name}.png`, animations: 'disabled' });
}

async function openControlledPage(page: Page, context: BrowserContext) {
  await page.goto('/');
  await controlledByServiceWorker(page);
  return { page, context };
}

test('offline, the app shell still opens, and a page the worker does not keep shows the offline page', async ({ page, context }) => {
  await openControlledPage(page, context);
  await context.setOffline(true);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Unlimited calls everywhere' })).toBeVisible();

  // The outbox is the server's own page (SERVER_PATH_PREFIXES): never the shell, and offline, the offline page.
  await page.goto('/dev/outbox');
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open Voxline' })).toHaveAttribute('href', '/');
  await screenshotForDocs(page, 'offline-page');
  await expectAccessible(page, 'the offline page, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, 'the offline page, dark');
});

test('API answers always come from the network: offline a request fails, and no API answer is in the cache', async ({ page, context }) => {
  await openControlledPage(page, context);

  const fetchSession = () =>
    page.evaluate(() =>
      fetch('/api/v1/session').then(
        (response) => `answered ${response.status}`,
        (error: Error) => `failed: ${error.name}`,
      ),
    );
  const online = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/session');
  expect(await fetchSession()).toMatch(/^answered \d{3}$/);
  expect((await online).fromServiceWorker()).toBe(false);

  await context.setOffline(true);
  expect(await fetchSession()).toBe('failed: TypeError');

  const paths = await cachedPaths(page);
  expect(paths).toEqual(expect.arrayContaining(['/index.html', '/offline.html', '/manifest.webmanifest', '/sounds/ringtone.wav', '/icons/icon-192.png', '/icons/icon-maskable-512.png']));
  expect(paths.some((path) => path.startsWith('/assets/') && path.endsWith('.js'))).toBe(true);
  expect(paths.filter((path) => isServerPath(path))).toEqual([]);
});

test('Chromium finds the app installable: its manifest parses and no installability error is left', async ({ playwright, launchOptions, headless, baseURL }, testInfo) => {
  // Headless Chromium shows no install prompt; DevTools reports what would stop one. Chromium never
  // offers to install from an incognito profile, which Playwright's contexts are: use a profile on disk.
  const context = await playwright.chromium.launchPersistentContext(testInfo.outputPath('profile'), { ...launchOptions, headless, baseURL, serviceWorkers: 'allow' });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await openControlledPage(page, context);
    const devtools = await context.newCDPSession(page);
    const manifest = await devtools.send('Page.getAppManifest');
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

test('a new version waiting shows "New version available — Reload", and Reload brings it in', async ({ page, context }) => {
  await openControlledPage(page, context);
  let loads = 0;
  page.on('load', () => (loads += 1));

  // A deploy, as the browser sees it: a service worker script that differs from the one in control.
  // (The browser fetches the script itself, out of Playwright's routing, so the test cannot change
  // what /sw.js answers; a new script URL makes the browser install the same code as a new version.)
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js?release=2'));

  await expect(page.getByText('New version available')).toBeVisible();
  const reload = page.getByRole('button', { name: 'Reload' });
  await expect(reload).toBeVisible();
  await screenshotForDocs(page, 'update-prompt');

  await reload.click();
  await expect.poll(() => loads).toBe(1);
  await controlledByServiceWorker(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js\?release=2$/);
});

test('with the worker in control, a chunk gone from the cache and the server still reloads once, then shows the error screen', async ({ page, context }) => {
  await openControlledPage(page, context);
  // What a deploy leaves a tab of the old version: the new worker dropped its chunks, the server has none.
  await page.evaluate(async () => {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) if (/\/assets\/auth-page-[^/]+\.js/.test(request.url)) await cache.delete(request);
    }
  });
  await context.route(/\/assets\/auth-page-[^/]+\.js/, (route) => route.abort());
  let loads = 0;
  page.on('load', () => (loads += 1));

  await page.getByRole('link', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  expect(loads).toBe(1);
});
