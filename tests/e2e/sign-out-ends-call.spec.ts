import { expect, test } from './fixtures';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';
import { rentFirstNumberThroughPage } from './support/numbers';

test('signing out in another tab ends the call in progress in the first, which shows the person signed out', async ({ launchWithMicrophone }) => {
  const { context, page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 60 }), { loop: true });
  const email = uniqueEmail('signout');
  await signUpThroughPage(page, 'Sign Out', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);

  // A number to call from; each spec searches its own area code, so parallel tests never race for one.
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, '917');

  // The first tab calls the sound-test line.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(page.getByText('Call connected')).toBeVisible();
  await expect(bar).toContainText(/0:0[1-9]/);

  // A second tab of the same browser signs out (everywhere, as Voxline does).
  const other = await context.newPage();
  await other.goto('/contacts');
  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(other.getByText('Logged out', { exact: true })).toBeVisible();

  // The first tab's call ends, and the tab knows it is signed out rather than reconnecting.
  await expect(bar).toBeHidden({ timeout: 5_000 });
  await expect(page.getByText('Call ended', { exact: true })).toBeVisible();
  await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
});
