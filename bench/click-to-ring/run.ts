import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Browser, type BrowserContext, chromium, expect, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from '../../tests/e2e/support/chromium';
import { startServer } from '../../tests/e2e/support/server';
import { writeSineWav } from '../../tests/e2e/support/wav';
import { buildWebApp, webBuildIsStale } from '../lighthouse/web-build';
import { type ClickToRing, clickToRingTable } from './click-to-ring-figures';
import { callPresses, callsRequestStarts, recordCallPresses, recordRings, rings } from './ring-probes';

/**
 * npm run bench:click-to-ring (issue 22): from a press of Call in one user's dialer to the Incoming
 * Call card in another user's Call Receiver, two Chromium contexts on loopback against the real
 * server, one call after the other, each ended before the next. See docs/benchmarks.md.
 *
 *   npm run bench:click-to-ring -- --calls 20 [--no-build]
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'velvet harbour lantern 42';
const WAIT = { timeout: 20_000 };

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20' },
    build: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const callCount = Number(values.calls);
if (!Number.isInteger(callCount) || callCount < 1 || callCount > 500) throw new Error(`--calls takes a whole number from 1 to 500 (got ${values.calls})`);

async function inPage<T>(page: Page, method: 'GET' | 'POST', apiPath: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, apiPath, body }) => {
      const response = await fetch(apiPath, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, text: await response.text() };
    },
    { method, apiPath, body },
  );
  if (answer.status >= 300) throw new Error(`${method} ${apiPath} answered ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text) as T;
}

/** A context of its own (its own address, as behind a load balancer), signed up and in through the API, owning one number of `areaCode`. */
async function newUser(browser: Browser, baseURL: string, name: string, areaCode: string, clientAddress: string): Promise<{ context: BrowserContext; page: Page; number: string }> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': clientAddress } });
  // Both clocks in both pages, installed before the first page: harmless where unused.
  await recordRings(context);
  await recordCallPresses(context);
  const page = await context.newPage();
  await page.goto('/auth');
  const email = `${name.toLowerCase()}-${Date.now().toString(36)}@bench.voxline.test`;
  await inPage(page, 'POST', '/api/v1/auth/sign-up', { fullName: name, email, password: PASSWORD });
  await inPage(page, 'POST', '/api/v1/auth/sign-in', { email, password: PASSWORD });
  const { numbers } = await inPage<{ numbers: { phoneNumber: string; country: string }[] }>(page, 'GET', `/api/v1/numbers/available?country=US&pattern=${areaCode}`);
  const [offered] = numbers;
  if (!offered) throw new Error(`no number of area code ${areaCode} to rent`);
  const rented = await inPage<{ phoneNumber: string }>(page, 'POST', '/api/v1/numbers', { country: offered.country, phoneNumber: offered.phoneNumber });
  return { context, page, number: rented.phoneNumber };
}

/** Resolves once the page has told the server, on its signalling socket, that it takes calls. */
function receiverStartSent(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        if (typeof payload === 'string' && payload.includes('"receiver.start"')) resolve();
      });
    });
  });
}

if (values.build && webBuildIsStale(ROOT)) {
  console.log('dist/web is missing or older than its sources: building it');
  buildWebApp(ROOT);
}

const server = await startServer({ root: ROOT });
const wav = writeSineWav({ frequency: 440, seconds: 5, dir: os.tmpdir() });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav, { loop: true })] });
async function stopAll() {
  await browser.close();
  await server.stop();
  fs.rmSync(wav, { force: true });
}
// Ctrl-C must not leave the server and its data folder behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
try {
  const [callee, caller] = await Promise.all([newUser(browser, server.url, 'Callee', '646', '10.22.0.1'), newUser(browser, server.url, 'Caller', '312', '10.22.0.2')]);

  // Watched from before the page opens its signalling socket.
  const receiverStarted = receiverStartSent(callee.page);
  await callee.page.goto('/call-settings');
  await callee.page.getByRole('tab', { name: 'Call Receiver' }).click();
  await callee.page.getByRole('button', { name: 'Receive Calls' }).click();
  await expect(callee.page.getByText('Ready to receive incoming calls')).toBeVisible(WAIT);
  // The button shows the new state at once: the first call must wait for the message to leave.
  await receiverStarted;
  await caller.page.goto('/dialer');

  const incoming = callee.page.getByRole('region', { name: 'Incoming Call' });
  const activeCall = caller.page.getByRole('region', { name: 'Active call' });
  const measured: ClickToRing[] = [];
  for (let call = 1; call <= callCount; call += 1) {
    await caller.page.getByLabel('Phone number').fill(callee.number.replace(/^\+1/, ''));
    await caller.page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(incoming).toBeVisible(WAIT);
    await expect.poll(async () => (await rings(callee.page)).length, { ...WAIT, message: 'the callee page records the ring' }).toBe(call);
    await expect.poll(async () => (await rings(callee.page)).at(-1)?.nextFrameMs ?? null, { ...WAIT, message: 'the callee page draws a frame after the ring' }).not.toBeNull();
    const presses = await callPresses(caller.page);
    const [ring] = (await rings(callee.page)).slice(-1);
    const pressedMs = presses.at(-1);
    if (pressedMs === undefined || !ring || ring.nextFrameMs === null || presses.length !== call) {
      throw new Error(`call ${call}: ${presses.length} presses of Call recorded; each call should add one`);
    }
    const requestMs = (await callsRequestStarts(caller.page)).find((startMs) => startMs >= pressedMs);
    if (requestMs === undefined) throw new Error(`call ${call}: no request to /api/v1/calls after the press of Call`);
    const figures = { toRequestMs: requestMs - pressedMs, toDocumentMs: ring.inDocumentMs - pressedMs, toFrameMs: ring.nextFrameMs - pressedMs };
    measured.push(figures);
    console.log(`call ${String(call).padStart(2)}/${callCount}: request after ${figures.toRequestMs.toFixed(0)} ms, in the callee's document after ${figures.toDocumentMs.toFixed(0)} ms, painted after ${figures.toFrameMs.toFixed(0)} ms`);

    await activeCall.getByRole('button', { name: 'End call' }).click();
    await expect(activeCall).toBeHidden(WAIT);
    await expect(incoming).toBeHidden(WAIT);
    await expect(callee.page.getByText('Ready to receive incoming calls')).toBeVisible(WAIT);
  }

  console.log(`\n${await browser.version()} (${CHROMIUM_PATH}), two contexts, server ${server.url}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'})\n`);
  console.log(clickToRingTable(measured).join('\n'));
} finally {
  await stopAll();
}
