import type { Locator } from '@playwright/test';
import { expect, test, type LaunchWithMicrophone } from './fixtures';
import { signUpWithANumber, startReceiving } from './support/people';
import { writeSineWav } from './support/wav';

/** How many packets the Call details panel says were received so far (NaN while it says none). */
async function packetsReceived(details: Locator) {
  const text = (await details.locator('[data-figure="Packets"]').textContent()) ?? '';
  return Number(/^([\d,]+) received/.exec(text)?.[1]?.replaceAll(',', '') ?? NaN);
}

/** A person with a fake microphone playing a looping tone, signed up, logged in and owning one number from this area code. */
async function personWithANumber(launchWithMicrophone: LaunchWithMicrophone, name: string, frequency: number, areaCode: string) {
  const { page } = await launchWithMicrophone(writeSineWav({ frequency, seconds: 10, silenceSeconds: 0 }), { loop: true });
  return signUpWithANumber(page, name, areaCode);
}

/**
 * docs/calls.md#call-details (issue 20 item 4): the active call's "Call details" show its audio's
 * figures, read every second, and the call record keeps their averages and worst for Call History.
 * UPDATE_SCREENSHOTS=1 also writes docs/screenshots/call-details.png.
 */
test('call details: a sound-test call shows figures that change while it is up, and Call History keeps them', async ({ launchWithMicrophone }) => {
  test.setTimeout(120_000);
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 60, amplitude: 0.3, silenceSeconds: 0 }), { loop: true });
  await signUpWithANumber(page, 'Line Watcher', '808');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await expect(page).toHaveURL(/\/dialer$/);

  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  await expect(page.getByText('Call connected')).toBeVisible();
  const bar = page.getByRole('region', { name: 'Active call' });
  const toggle = bar.getByRole('button', { name: 'Call details' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const details = bar.getByRole('region', { name: 'Call details' });
  const figure = (term: string) => details.locator(`[data-figure="${term}"]`);

  await expect(figure('Transport')).toHaveText('WebRTC', { timeout: 15_000 });
  await expect(figure('Codec')).toHaveText('Opus');
  await expect(figure('Quality')).toHaveText(/^(Good|Fair|Poor)$/);
  await expect(figure('Voice changer delay')).toHaveText('None');
  await expect(figure('Round trip')).toHaveText(/^\d+ ms$/);
  await expect(figure('Jitter')).toHaveText(/^\d+ ms$/);
  // The microphone's 440 Hz is heard: its level is above zero.
  await expect.poll(async () => Number(await details.getByRole('meter', { name: 'Microphone level' }).getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(0);

  // The figures change as the call goes on: the packets received keep counting.
  const received = () => packetsReceived(details);
  await expect.poll(received, { timeout: 15_000 }).toBeGreaterThan(0);
  const first = await received();
  await expect.poll(received, { timeout: 15_000 }).toBeGreaterThan(first);

  if (process.env.UPDATE_SCREENSHOTS === '1') {
    // The notices of the call's start would cover the bar's buttons.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await bar.screenshot({ path: 'docs/screenshots/call-details.png', animations: 'disabled' });
  }

  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();
  await page.getByRole('tab', { name: 'Call History' }).click();
  const history = page.getByRole('list', { name: 'Recent calls' });
  await expect(history.getByRole('listitem').first()).toContainText(/Quality: (Good|Fair|Poor).* · Opus · round trip \d+ ms \(worst \d+ ms\)/, { timeout: 15_000 });
});

/**
 * The receiver's side (issue 20 item 4): a call between two Voxline users, answered in the
 * receiver's tab; the On Call card's Call details show the call's figures and its packet count
 * rises while the call is up. The numbers come from area codes no other spec uses (603, 614).
 */
test('call details: the On Call card of a call received in the browser shows figures that change while it is up', async ({ launchWithMicrophone }) => {
  test.setTimeout(150_000);
  const [callee, caller] = await Promise.all([
    personWithANumber(launchWithMicrophone, 'Details Callee', 660, '603'),
    personWithANumber(launchWithMicrophone, 'Details Caller', 440, '614'),
  ]);

  await startReceiving(callee);

  await caller.page.goto('/dialer');
  await expect(caller.page.getByRole('button', { name: /^Country: United States \+1/ })).toBeVisible();
  await caller.page.getByLabel('Phone number').fill(callee.shown.replace(/\D/g, '').slice(1));
  await caller.page.getByRole('button', { name: 'Call', exact: true }).click();

  const incoming = callee.page.getByRole('region', { name: 'Incoming Call' });
  await expect(incoming).toContainText(caller.shown);
  await incoming.getByRole('button', { name: 'Answer' }).click();
  const onCall = callee.page.getByRole('region', { name: 'On Call' });
  await expect(onCall).toContainText(caller.shown);
  await expect(callee.page.getByText('Call connected')).toBeVisible();

  const toggle = onCall.getByRole('button', { name: 'Call details' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const details = onCall.getByRole('region', { name: 'Call details' });
  await expect(details.locator('[data-figure="Transport"]')).toHaveText('WebRTC', { timeout: 15_000 });
  await expect(details.locator('[data-figure="Codec"]')).toHaveText('Opus');
  await expect(details.locator('[data-figure="Quality"]')).toHaveText(/^(Good|Fair|Poor)$/);
  await expect(details.locator('[data-figure="Round trip"]')).toHaveText(/^\d+ ms$/);
  // The callee's microphone plays 660 Hz: its level is above zero.
  await expect.poll(async () => Number(await details.getByRole('meter', { name: 'Microphone level' }).getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(0);

  // Two reads of the packets received: the second is higher, so the figures follow the call.
  await expect.poll(() => packetsReceived(details), { timeout: 15_000 }).toBeGreaterThan(0);
  const first = await packetsReceived(details);
  await expect.poll(() => packetsReceived(details), { timeout: 15_000 }).toBeGreaterThan(first);

  await onCall.getByRole('button', { name: 'End Call' }).click();
  await expect(onCall).toBeHidden();
  await expect(caller.page.getByRole('region', { name: 'Active call' })).toBeHidden();
});
