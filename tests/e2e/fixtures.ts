import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { fakeMicrophoneArgs } from './support/chromium';
import { assertFakeMicrophoneWav } from './support/wav';

/**
 * The E2E test API: import { test, expect } from './fixtures' (never from '@playwright/test').
 *
 * - `baseURL` is the server global set-up started, so `page.goto('/contacts')` works.
 * - `launchWithMicrophone(wavPath)` starts a separate Chromium whose microphone plays the WAV and
 *   returns a page in it (with baseURL set); everything it launched is closed after the test.
 *   Chromium takes the fake-capture file at launch, so each call launches its own browser: call it
 *   twice for the two ends of a call.
 *
 *   const wav = writeSineWav({ frequency: 440, seconds: 10 });
 *   const { page } = await launchWithMicrophone(wav);
 *   await page.goto('/dialer');
 */

interface MicrophoneLaunchOptions {
  /** Loop the file forever instead of playing it once (`%noloop`); false by default. */
  loop?: boolean;
  /** Options for the new context; baseURL is filled in unless given. */
  contextOptions?: BrowserContextOptions;
}

interface MicrophoneSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

export type LaunchWithMicrophone = (wavPath: string, options?: MicrophoneLaunchOptions) => Promise<MicrophoneSession>;

let clients = 0;

/**
 * A client address of its own for each browser context. Every browser reaches the server from
 * 127.0.0.1, so without this all tests would share the per-address limits (10 sign-ups an hour);
 * the test server trusts X-Forwarded-For from loopback (TRUST_PROXY), as it would from a load balancer.
 */
function clientAddressHeader() {
  clients += 1;
  return { 'x-forwarded-for': `10.${process.pid % 250}.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}` };
}

interface VoxlineFixtures {
  launchWithMicrophone: LaunchWithMicrophone;
}

export const test = base.extend<VoxlineFixtures>({
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, use) => {
    await use(clientAddressHeader());
  },

  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.VOXLINE_E2E_URL;
    if (!url) {
      throw new Error('VOXLINE_E2E_URL is not set: run the suite with `npx playwright test` (its global set-up starts the server) or point it at a running server');
    }
    await use(url);
  },

  launchWithMicrophone: async ({ playwright, launchOptions, headless, baseURL }, use, testInfo) => {
    const sessions: MicrophoneSession[] = [];
    await use(async (wavPath, { loop = false, contextOptions = {} } = {}) => {
      assertFakeMicrophoneWav(wavPath); // Chromium plays a missing or 24-bit file as silence, silently.
      const browser = await playwright.chromium.launch({
        ...launchOptions,
        headless,
        // launch() merges options shallowly: keep the configured flags and add the microphone ones.
        args: [...(launchOptions.args ?? []), ...fakeMicrophoneArgs(wavPath, { loop })],
      });
      try {
        // A context of its own does not inherit playwright.config.ts's `use`: block the service worker here too.
        const context = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader(), serviceWorkers: 'block', ...contextOptions });
        const page = await context.newPage();
        const session = { browser, context, page };
        sessions.push(session);
        return session;
      } catch (error) {
        await browser.close();
        throw error;
      }
    });
    const failed = testInfo.status !== testInfo.expectedStatus;
    for (const [index, { browser, context }] of sessions.entries()) {
      if (failed) {
        for (const [pageIndex, page] of context.pages().entries()) {
          const body = await page.screenshot().catch(() => undefined);
          if (body) await testInfo.attach(`microphone-${index + 1}-page-${pageIndex + 1}`, { body, contentType: 'image/png' });
        }
      }
      await browser.close();
    }
  },
});

export { expect };
