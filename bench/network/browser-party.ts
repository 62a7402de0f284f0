import { type Browser, chromium, expect, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from '../../tests/e2e/support/chromium';
import { installAudioProbes, type RelayMapping } from './audio-probes';

/** One person in the bench: a Chromium of their own, whose microphone plays their talker's file. */
export interface Party {
  name: string;
  browser: Browser;
  page: Page;
  /** Their rented number, E.164. */
  number: string;
}

const PASSWORD = 'velvet harbour lantern 42';
const WAIT = { timeout: 20_000 };

/**
 * Chromium plays audio with no click first (the probes' own AudioContext), and takes the bench's
 * plain-HTTP origin on the host's address as secure, as it takes localhost: the microphone and
 * WebCodecs need a secure context.
 */
function benchArgs(baseUrl: string) {
  return ['--autoplay-policy=no-user-gesture-required', `--unsafely-treat-insecure-origin-as-secure=${baseUrl}`];
}

async function inPage<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, text: await response.text() };
    },
    { method, path, body },
  );
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text) as T;
}

export interface PartyOptions {
  name: string;
  wavPath: string;
  /** The TCP proxy in front of the server. */
  baseUrl: string;
  areaCode: string;
  /** The party's own address, as a load balancer would pass it on (TRUST_PROXY), so that per-address limits count each party apart. */
  clientAddress: string;
  relay: RelayMapping | null;
  /** Chromium, or a script that starts it elsewhere (in a network namespace); Debian's Chromium by default. */
  executablePath?: string;
}

/**
 * Launches a party's Chromium with the audio probes installed, signs them up and in through the
 * API, and rents them a number of `areaCode`.
 */
export async function launchParty({ name, wavPath, baseUrl, areaCode, clientAddress, relay, executablePath = CHROMIUM_PATH }: PartyOptions): Promise<Party> {
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wavPath, { loop: true }), ...benchArgs(baseUrl)] });
  try {
    // The probes' recorders load from blob: URLs, which the app's Content-Security-Policy forbids.
    const context = await browser.newContext({ baseURL: baseUrl, bypassCSP: true, extraHTTPHeaders: { 'x-forwarded-for': clientAddress } });
    await installAudioProbes(context, relay);
    const page = await context.newPage();
    await page.goto('/auth');
    const email = `${name.toLowerCase()}-${Date.now().toString(36)}@bench.voxline.test`;
    await inPage(page, 'POST', '/api/v1/auth/sign-up', { fullName: name, email, password: PASSWORD });
    await inPage(page, 'POST', '/api/v1/auth/sign-in', { email, password: PASSWORD });
    const { numbers } = await inPage<{ numbers: { phoneNumber: string; country: string }[] }>(page, 'GET', `/api/v1/numbers/available?country=US&pattern=${areaCode}`);
    const [offered] = numbers;
    if (!offered) throw new Error(`no number of area code ${areaCode} to rent`);
    const rented = await inPage<{ phoneNumber: string }>(page, 'POST', '/api/v1/numbers', { country: offered.country, phoneNumber: offered.phoneNumber });
    await page.goto('/dialer');
    return { name, browser, page, number: rented.phoneNumber };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

function activeCall(page: Page) {
  return page.getByRole('region', { name: 'Active call' });
}

async function openDialer(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
}

/** Calls the sound-test line from the dialer; returns once the call is connected. */
export async function callSoundTest({ page }: Party) {
  await openDialer(page);
  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  await expect(activeCall(page)).toContainText(/\d:\d\d/, WAIT);
}

/** Turns on the Call Receiver in Call Settings, as a person who takes calls in this tab does. */
export async function startReceiving({ page }: Party) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call Settings', exact: true }).click();
  await page.getByRole('tab', { name: 'Call Receiver' }).click();
  await page.getByRole('button', { name: 'Receive Calls' }).click();
  await expect(page.getByRole('button', { name: 'Stop Receiving' })).toBeVisible(WAIT);
}

/** The caller dials the callee's number and the callee answers; returns once both are connected. */
export async function callBetween(caller: Party, callee: Party) {
  await openDialer(caller.page);
  await caller.page.getByLabel('Phone number').fill(callee.number.replace(/^\+1/, ''));
  await caller.page.getByRole('button', { name: 'Call', exact: true }).click();
  await callee.page.getByRole('region', { name: 'Incoming Call' }).getByRole('button', { name: 'Answer' }).click(WAIT);
  await expect(callee.page.getByRole('region', { name: 'On Call' })).toBeVisible(WAIT);
  await expect(activeCall(caller.page)).toContainText(/\d:\d\d/, WAIT);
}

/** Ends the party's call from the active call bar. */
export async function hangUp({ page }: Party) {
  await activeCall(page).getByRole('button', { name: 'End call' }).click();
  await expect(activeCall(page)).toBeHidden(WAIT);
}

/** How the party's latest call carried its audio, as the server recorded it; null when it does not say. */
export async function latestTransport({ page }: Party): Promise<string | null> {
  const { calls } = await inPage<{ calls: { mediaTransport?: string | null }[] }>(page, 'GET', '/api/v1/calls');
  return calls[0]?.mediaTransport ?? null;
}
