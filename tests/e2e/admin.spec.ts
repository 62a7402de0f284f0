import { expect, test } from './fixtures';
import { ADMIN_EMAIL, logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

test("an administrator sees another user's call in the Admin page and ends it; the caller is told why", async ({ page, launchWithMicrophone }) => {

  // A user calls the sound-test line.
  const caller = (await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 60 }), { loop: true })).page;
  const callerEmail = uniqueEmail('admin-view-caller');
  await signUpThroughPage(caller, 'Carla Caller', callerEmail);
  await logInThroughPage(caller, callerEmail);
  await expect(caller).toHaveURL(/\/dialer$/);
  // Not an administrator: no Admin link, and the page says so.
  await expect(caller.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true })).toBeVisible();
  await expect(caller.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await caller.goto('/admin');
  await expect(caller.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();

  // A number of its own area code, so that parallel specs never race for one.
  await caller.goto('/contacts');
  await caller.getByRole('button', { name: 'Add Your First Number' }).click();
  const dialog = caller.getByRole('dialog', { name: 'Add Number' });
  await dialog.getByLabel('Pattern').fill('303');
  await dialog.getByRole('button', { name: 'Search' }).click();
  await dialog.getByRole('button', { name: /^Select / }).first().click();
  await dialog.getByRole('button', { name: 'Add Number' }).click();
  await expect(caller.getByText('Phone number added')).toBeVisible();
  await caller.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await caller.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = caller.getByRole('region', { name: 'Active call' });
  await expect(caller.getByText('Call connected')).toBeVisible();

  // The administrator (ADMIN_EMAILS of the E2E server) signs in and finds the Admin link.
  await signUpThroughPage(page, 'Olga Operator', ADMIN_EMAIL);
  await logInThroughPage(page, ADMIN_EMAIL);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  const calls = page.getByRole('table', { name: /^Live calls/ });
  const row = calls.getByRole('row').filter({ hasText: callerEmail });
  await expect(row).toContainText('+1 (415) 555-0100');
  await expect(row).toContainText('Talking');
  await expect(page.getByRole('table', { name: /^Instances/ })).toContainText('Running');

  await row.getByRole('button', { name: /^End call from \+1 \(303\) \d{3}-\d{4} to \+1 \(415\) 555-0100$/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'End this call?' });
  await confirm.getByRole('button', { name: 'End call' }).click();
  await expect(page.getByText('Call ended', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);

  // The caller's call ends, saying who ended it.
  await expect(bar).toBeHidden();
  await expect(caller.getByText(/^The call was ended by an administrator\. Duration: \d+:\d\d$/)).toBeVisible();
});
