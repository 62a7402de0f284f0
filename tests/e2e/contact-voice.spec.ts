import { expect, test } from './fixtures';
import { payWith, subscribe, SUCCESS_CARD } from './support/checkout';
import { expectToHear, listenTo } from './support/heard-audio';
import { rentFirstNumberThroughPage } from './support/numbers';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

/**
 * Issue 20 item 5: a voice preset per contact. A Premium user whose own voice is the default saves
 * the sound-test line as a contact with pitch 1.5; calling it from Contacts echoes 440 Hz as 660 Hz,
 * and the dialer, the call bar and then Call History say whose voice the call uses.
 */
test('a contact with pitch 1.5 on a Premium account makes the sound-test line echo 440 Hz as 660 Hz', async ({ launchWithMicrophone }) => {
  test.setTimeout(120_000);
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 10, silenceSeconds: 0 }), { loop: true });
  const heard = await listenTo(page);
  const email = uniqueEmail('contact-voice');
  await signUpThroughPage(page, 'Contact Voice', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  // An area code no other test rents from, so tests side by side never race for one number.
  await rentFirstNumberThroughPage(page, '737');
  await subscribe(page, 'Premium');
  await payWith(page, SUCCESS_CARD);
  await expect(page.getByRole('article', { name: 'Subscription Payment Confirmation' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByRole('button', { name: 'Add Contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Contact' });
  await dialog.getByLabel('Name').fill('Echo line');
  await dialog.getByLabel('Phone Number').fill('+1 415 555 0100');
  await dialog.getByRole('combobox', { name: 'Voice for calls to this contact' }).click();
  await page.getByRole('option', { name: 'Normal Accent' }).click();
  const pitch = dialog.getByRole('slider', { name: 'Pitch' });
  await pitch.fill('1.5');
  await expect(pitch).toHaveAttribute('aria-valuetext', '1.50x');
  await dialog.getByRole('button', { name: 'Add Contact' }).click();
  await expect(page.getByText('Contact added')).toBeVisible();

  await page.getByRole('button', { name: 'Call Echo line' }).click();
  await expect(page).toHaveURL(/\/dialer\?to=/);
  // The dialer says which voice the call will use before it is placed.
  await expect(page.getByRole('status').filter({ hasText: 'Voice changer active' })).toHaveText(
    'Voice changer active: Normal Accent, pitch 1.50x, speed 1.00x (from contact Echo line)',
  );
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByText('Call connected')).toBeVisible();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(bar.getByRole('note', { name: 'Voice' })).toHaveText('Voice: Normal Accent, pitch 1.50x, speed 1.00x (from contact Echo line)');
  await expectToHear(heard, 660);

  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();
  // Call History keeps which voice the call used.
  await page.getByRole('tab', { name: 'Call History' }).click();
  await expect(page.getByRole('button', { name: /^Outgoing call to / }).first()).toContainText(
    'Voice: Normal Accent, pitch 1.50x, speed 1.00x (from contact Echo line)',
  );
});
