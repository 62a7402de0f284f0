import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

/**
 * Issue 20 item 2: audio devices. Chromium runs with fake media devices, which list more than one
 * microphone: Call Settings lists them, a choice is kept after a reload, and the level meter moves
 * with the fake microphone's tone. (The fake devices always have names: the hidden names before the
 * microphone is allowed are proven in devices-panel.test.tsx.)
 */

async function openCallReceiver(page: Page) {
  await page.goto('/call-settings');
  await page.getByRole('tab', { name: 'Call Receiver' }).click();
  return page.getByRole('region', { name: 'Devices' });
}

async function signedUp(page: Page, label: string) {
  const email = uniqueEmail(label);
  await signUpThroughPage(page, 'Devi Ces', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
}

test('Call Settings lists the fake microphones; the one chosen is kept after a reload and its level shows', async ({ launchWithMicrophone }) => {
  // A browser of its own, a sign-up and a reload: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  const { page, context } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 10, silenceSeconds: 0 }), { loop: true });
  await context.grantPermissions(['microphone']);
  await signedUp(page, 'devices-choice');

  const devices = await openCallReceiver(page);
  const microphone = devices.getByRole('combobox', { name: 'Microphone' });
  await expect(microphone).toHaveValue('default');
  const options = microphone.getByRole('option');
  await expect(options.first()).toHaveText('System default');
  // The fake devices have names (the microphone is allowed): a second device, or the default when only one exists.
  await expect(options.nth(1)).toHaveText(/Fake/);
  const chosen = options.last();
  const name = (await chosen.textContent())!;
  await microphone.selectOption({ label: name });
  await expect(microphone.locator('option:checked')).toHaveText(name);

  await page.reload();
  await page.getByRole('tab', { name: 'Call Receiver' }).click();
  await expect(page.getByRole('region', { name: 'Devices' }).getByRole('combobox', { name: 'Microphone' }).locator('option:checked')).toHaveText(name);

  await page.getByRole('region', { name: 'Devices' }).getByRole('button', { name: 'Test microphone' }).click();
  const meter = page.getByRole('meter', { name: 'Microphone level' });
  await expect.poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(10);
});
