import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { rentFirstNumberThroughPage } from './support/numbers';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

/**
 * Issue 20 item 3: the "Ready to take calls" check, with the fake devices and the microphone
 * allowed, and in a context where the microphone is blocked. UPDATE_SCREENSHOTS=1 also writes
 * docs/screenshots/readiness-panel.png.
 *
 * Numbers come from area codes no other spec rents from (316 and 402).
 */

async function signedUpWithNumber(page: Page, label: string, pattern: string) {
  const email = uniqueEmail(label);
  await signUpThroughPage(page, 'Reddy Ness', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, pattern);
  await page.goto('/call-settings');
  await page.getByRole('tab', { name: 'Call Receiver' }).click();
}

test('passes with the fake devices once the test tone is heard', async ({ launchWithMicrophone }) => {
  // A browser of its own, a sign-up, a number and three rounds of checks: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  const { page, context } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 10, silenceSeconds: 0 }), { loop: true });
  await context.grantPermissions(['microphone', 'notifications']);
  await signedUpWithNumber(page, 'readiness-ok', '316');

  const panel = page.getByRole('region', { name: 'Ready to take calls' });
  await panel.getByRole('button', { name: 'Check now' }).click();
  const checks = panel.getByRole('list', { name: 'Readiness checks' });
  await expect(checks.getByRole('listitem', { name: 'Microphone: OK' })).toContainText('hears you');
  await expect(checks.getByRole('meter', { name: 'Microphone level' })).toBeVisible();
  for (const name of ['Notifications: OK', 'Ringtone sound: OK', 'Connection: OK', 'Phone number: OK']) {
    await expect(checks.getByRole('listitem', { name })).toBeVisible();
  }
  await expect(panel.getByRole('status')).toHaveText('Ready, with 1 warning.');

  await checks.getByRole('button', { name: 'Play test tone' }).click();
  await checks.getByRole('button', { name: 'I heard it' }).click();
  await expect(checks.getByRole('listitem', { name: 'Speaker: OK' })).toBeVisible();
  await expect(panel.getByRole('status')).toHaveText('Ready to take calls.');
  if (process.env.UPDATE_SCREENSHOTS === '1') await panel.screenshot({ path: 'docs/screenshots/readiness-panel.png', animations: 'disabled' });

  // Every check passed: listening starts at once, with nothing listed.
  await page.getByRole('button', { name: 'Receive Calls' }).click();
  await expect(page.getByText('Ready to receive incoming calls')).toBeVisible();
  await expect(page.getByRole('note', { name: 'Readiness' })).toHaveCount(0);
});

test('fails the microphone where it is blocked, and listening can still start', async ({ launchWithMicrophone, baseURL }) => {
  test.setTimeout(120_000);
  const { page, context } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 10, silenceSeconds: 0 }), { loop: true });
  // A context without the permission: the site's microphone setting is "block".
  // Playwright's context is not the browser's default one: the setting names it.
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', { permission: { name: 'microphone' }, setting: 'denied', origin: new URL(baseURL!).origin, browserContextId: targetInfo.browserContextId });
  await signedUpWithNumber(page, 'readiness-blocked', '402');

  const panel = page.getByRole('region', { name: 'Ready to take calls' });
  await panel.getByRole('button', { name: 'Check now' }).click();
  const checks = panel.getByRole('list', { name: 'Readiness checks' });
  await expect(checks.getByRole('listitem', { name: 'Microphone: Failed' })).toContainText('blocked for this site');
  await expect(checks.getByRole('listitem', { name: 'Connection: OK' })).toBeVisible();
  await expect(panel.getByRole('status')).toContainText('1 check failed');

  // Receive Calls runs the checks first: the failure holds the start until "Start anyway".
  await page.getByRole('button', { name: 'Receive Calls' }).click();
  const before = page.getByRole('region', { name: 'Before listening' });
  await expect(before.getByRole('listitem', { name: 'Microphone: Failed' })).toBeVisible();
  await expect(page.getByText('Call receiving is turned off')).toBeVisible();
  await before.getByRole('button', { name: 'Start anyway' }).click();
  await expect(page.getByText('Ready to receive incoming calls')).toBeVisible();
  await expect(page.getByRole('note', { name: 'Readiness' })).toContainText('Microphone (failed)');
});
