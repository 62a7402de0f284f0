import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { payWith, subscribe, SUCCESS_CARD } from './support/checkout';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/**
 * Issue 19, multi-device sync: one user on two devices (two browser contexts, so two sessions and
 * two realtime sockets). What one saves shows on the other within 2 s, without a reload.
 */
const WITHIN = { timeout: 2_000 };

/** A page of the app reached as a person would, through the navigation, so the page is never reloaded afterwards. */
async function openFromNavigation(page: Page, link: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
}

test('on Platinum, the plan, a contact, preferences and the voice saved on one device show on the other without a reload', async ({ page: laptop, browser, baseURL }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('sync');
  await signUpThroughPage(laptop, 'Dana Devices', email);
  await logInThroughPage(laptop, email);
  await expect(laptop).toHaveURL(/\/dialer$/);

  // The second device: a context of its own, from an address of its own (the per-address limits).
  const phoneContext = await browser.newContext({ baseURL, serviceWorkers: 'block', extraHTTPHeaders: { 'x-forwarded-for': `10.251.${process.pid % 250}.1` } });
  const phone = await phoneContext.newPage();
  await phone.goto('/auth');
  await logInThroughPage(phone, email);
  await expect(phone).toHaveURL(/\/dialer$/);
  // Counted from here: a navigation would load everything afresh and prove nothing.
  let phoneLoads = 0;
  phone.on('load', () => (phoneLoads += 1));

  // Platinum, the plan multi-device sync belongs to (docs/decisions/037-sync-on-platinum.md), bought
  // on the laptop: the phone's Call Settings open the pitch to it.
  await openFromNavigation(phone, 'Call Settings');
  const phonePitch = phone.getByRole('slider', { name: 'Pitch' });
  await expect(phonePitch).toHaveAttribute('aria-valuetext', '1.00x');
  await expect(phonePitch).toBeDisabled();
  await subscribe(laptop, 'Platinum');
  await payWith(laptop, SUCCESS_CARD);
  await expect(laptop.getByRole('article', { name: 'Subscription Payment Confirmation' })).toBeVisible();
  await expect(phonePitch).toBeEnabled(WITHIN);

  // A contact added on the laptop.
  await openFromNavigation(phone, 'Contacts');
  await openFromNavigation(laptop, 'Contacts');
  const phoneContacts = phone.getByRole('region', { name: 'Your Contacts' });
  await expect(phoneContacts.getByText("You don't have any contacts yet")).toBeVisible();
  const contacts = laptop.getByRole('region', { name: 'Your Contacts' });
  await contacts.getByRole('button', { name: 'Add Contact' }).click();
  const dialog = laptop.getByRole('dialog', { name: 'Add Contact' });
  await dialog.getByLabel('Name').fill('Grace Hopper');
  await dialog.getByLabel('Phone Number').fill('(213) 373-4253');
  await dialog.getByRole('button', { name: 'Add Contact' }).click();
  await expect(contacts.getByRole('cell', { name: 'Grace Hopper', exact: true })).toBeVisible();
  await expect(phoneContacts.getByRole('cell', { name: 'Grace Hopper', exact: true })).toBeVisible(WITHIN);

  // Preferences saved on the laptop: the phone's switches show them, and its theme follows Dark Mode.
  await phone.goto('/settings?tab=preferences');
  phoneLoads = 0;
  await laptop.goto('/settings?tab=preferences');
  const phoneDarkMode = phone.getByRole('switch', { name: 'Dark Mode' });
  await expect(phoneDarkMode).toBeVisible();
  const darkBefore = (await phoneDarkMode.getAttribute('aria-checked')) === 'true';
  await expect(phone.locator('html')).toContainClass(darkBefore ? 'dark' : 'light');
  await expect(phone.getByRole('switch', { name: 'Low Data Mode' })).toHaveAttribute('aria-checked', 'false');
  await laptop.getByRole('switch', { name: 'Dark Mode' }).click();
  await laptop.getByRole('switch', { name: 'Low Data Mode' }).click();
  await laptop.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(laptop.getByText('Preferences updated')).toBeVisible();
  await expect(phone.getByRole('switch', { name: 'Low Data Mode' })).toHaveAttribute('aria-checked', 'true', WITHIN);
  await expect(phoneDarkMode).toHaveAttribute('aria-checked', String(!darkBefore), WITHIN);
  await expect(phone.locator('html')).toContainClass(darkBefore ? 'light' : 'dark', WITHIN);

  // The voice changed on the laptop.
  await openFromNavigation(phone, 'Call Settings');
  await expect(phonePitch).toHaveAttribute('aria-valuetext', '1.00x');
  await openFromNavigation(laptop, 'Call Settings');
  const pitch = laptop.getByRole('slider', { name: 'Pitch' });
  await expect(pitch).toBeEnabled();
  const saved = laptop.waitForResponse((response) => response.url().endsWith('/api/v1/voice-settings') && response.request().method() === 'PUT' && response.ok());
  await pitch.focus();
  for (let i = 0; i < 5; i += 1) await laptop.keyboard.press('ArrowRight');
  await expect(pitch).toHaveAttribute('aria-valuetext', '1.50x');
  await saved;
  await expect(phonePitch).toHaveAttribute('aria-valuetext', '1.50x', WITHIN);

  expect(phoneLoads).toBe(0);
  await phoneContext.close();
});
