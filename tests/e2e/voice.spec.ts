import { expect, test } from './fixtures';
import { payWith, subscribe, SUCCESS_CARD } from './support/checkout';
import { expectToHear, listenTo } from './support/heard-audio';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';
import { rentFirstNumberThroughPage } from './support/numbers';

/**
 * Issue 7: a Premium user raises their pitch in the Voice Changer panel and hears it on the
 * sound-test line, which plays back what a recipient would hear.
 */
test('a Premium user sets pitch 1.5, hears 220 Hz come back at 330 Hz, and resets the voice', async ({ launchWithMicrophone }) => {
  test.setTimeout(120_000);
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 220, seconds: 10, silenceSeconds: 0 }), { loop: true });
  const heard = await listenTo(page);
  const email = uniqueEmail('voice');
  await signUpThroughPage(page, 'Voice User', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);

  // A number (from an area code no other test rents from) and the Premium plan.
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, '206');
  await subscribe(page, 'Premium');
  await payWith(page, SUCCESS_CARD);
  await expect(page.getByRole('article', { name: 'Subscription Payment Confirmation' })).toBeVisible();

  // Pitch 1.5 in the panel, saved on the server.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call Settings', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Voice Changer' })).toHaveAttribute('aria-selected', 'true');
  const pitch = page.getByRole('slider', { name: 'Pitch' });
  await expect(pitch).toBeEnabled();
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/v1/voice-settings') && response.request().method() === 'PUT' && response.ok());
  await pitch.focus();
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
  await expect(pitch).toHaveAttribute('aria-valuetext', '1.50x');
  await expect(page.getByText('1.50x')).toBeVisible();
  await saved;

  // The dialer says the changer is on; the sound-test line plays back the changed voice.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await expect(page.getByText('Voice changer active: Normal Accent')).toBeVisible();
  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(page.getByText('Call connected')).toBeVisible();
  await expectToHear(heard, 330);
  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();

  // Reset: back to 1.00x and the normal voice.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Reset Voice Settings' }).click();
  await expect(page.getByText('Voice reset')).toBeVisible();
  await expect(pitch).toHaveAttribute('aria-valuetext', '1.00x');
  await expect(page.getByRole('slider', { name: 'Speed' })).toHaveAttribute('aria-valuetext', '1.00x');
});
