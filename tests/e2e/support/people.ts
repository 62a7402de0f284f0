import { expect, type Page } from '@playwright/test';
import { rentFirstNumberThroughPage } from './numbers';
import { watchSignalling } from './signalling';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './users';

/** One end of a call between two Voxline users: signed in and owning one number. */
export interface PersonWithANumber {
  page: Page;
  /** Their number as the app shows it: +1 (AAA) BBB-CCCC. */
  shown: string;
  /** How many signalling messages of this type their page has sent so far. */
  sentCount(type: string): number;
}

/**
 * Signs a new person up on a page that has not loaded the app yet, logs them in and rents them the
 * first number of `areaCode`; leaves the page on Contacts.
 */
export async function signUpWithANumber(page: Page, name: string, areaCode: string): Promise<PersonWithANumber> {
  const sentCount = watchSignalling(page);
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  await signUpThroughPage(page, name, email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  const shown = await rentFirstNumberThroughPage(page, areaCode);
  expect(shown).toMatch(new RegExp(`^\\+1 \\(${areaCode}\\) \\d{3}-\\d{4}$`));
  return { page, shown, sentCount };
}

/** Opens Call Settings → Call Receiver and turns receiving on; returns once the server has been told. */
export async function startReceiving({ page, sentCount }: PersonWithANumber) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call Settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Call Settings' })).toBeVisible();
  await page.getByRole('tab', { name: 'Call Receiver' }).click();
  await expect(page.getByRole('heading', { name: 'Receive Calls' })).toBeVisible();
  await expect(page.getByText('Call receiving is turned off')).toBeVisible();
  const before = sentCount('receiver.start');
  await page.getByRole('button', { name: 'Receive Calls' }).click();
  await expect(page.getByText('Ready to receive incoming calls')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop Receiving' })).toBeVisible();
  // The button shows the new state at once; the call must not be placed before the message left.
  await expect.poll(() => sentCount('receiver.start')).toBeGreaterThan(before);
}
