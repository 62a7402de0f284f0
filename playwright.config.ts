import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/support/chromium';

/**
 * Browser tests against the real server. Global set-up starts one server (free port, fresh
 * temporary DATA_DIR) and tests/e2e/fixtures.ts points baseURL at it, so tests import
 * { test, expect } from './fixtures' and call page.goto('/path').
 * Chromium is Debian's (/usr/bin/chromium, see scripts/ensure-chromium.mjs), never a downloaded one.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  fullyParallel: true,
  reporter: 'list',
  // Two workers share two cores with the server, whose password hashing and call audio compete
  // with both browsers: a sign-in has taken 3.6 s and a whole journey 33 s on a CI machine, and
  // one CI machine ran the suite in 20.9 min where a quiet one takes 7.7, a click on Answer then
  // waiting more than 10 s for the page to take it.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  globalSetup: './tests/e2e/support/global-setup.ts',
  globalTeardown: './tests/e2e/support/global-teardown.ts',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
    navigationTimeout: 15_000,
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The built app registers a service worker that precaches the whole build and then answers the
    // page's requests itself, out of page.route's reach. Specs see the network as they route it;
    // tests/e2e/offline-and-install.spec.ts allows the worker.
    serviceWorkers: 'block',
  },
  projects: [{ name: 'chromium' }],
});
