import { rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';
import { expectToHear, listenTo } from './support/heard-audio';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';
import { rentFirstNumberThroughPage } from './support/numbers';

test('a new user rents a number, calls the sound-test line, hears their own 440 Hz, mutes, hangs up and redials from history', async ({ launchWithMicrophone }) => {
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 60 }), { loop: true });
  const heard = await listenTo(page);
  const email = uniqueEmail('caller');
  await signUpThroughPage(page, 'Caller One', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await expect(page.getByText('You need to add a phone number to make calls.')).toBeVisible();

  // Rent a number.
  await page.getByRole('link', { name: 'Add a phone number' }).click();
  await page.getByRole('button', { name: 'Add Your First Number' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Number' });
  // Each test searches its own area code, so tests running side by side never race for one number.
  await dialog.getByLabel('Pattern').fill('646');
  await dialog.getByRole('button', { name: 'Search' }).click();
  await dialog.getByRole('button', { name: /^Select / }).first().click();
  await dialog.getByRole('button', { name: 'Add Number' }).click();
  await expect(page.getByText('Phone number added')).toBeVisible();

  // Call the sound-test line from the dialer.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(bar).toBeVisible();
  await expect(page.getByText('Call connected')).toBeVisible();
  await expect(bar).toContainText('+1');
  await expect(bar).toContainText('4155550100');

  // What the page plays is the microphone's tone, through the server and the echo, over WebRTC.
  await expect(bar.getByText('Audio: WebRTC (Opus)')).toBeVisible();
  await expectToHear(heard, 440);

  // Muted: the far end hears silence, so the echo goes quiet.
  await bar.getByRole('button', { name: 'Mute' }).click();
  await expect(page.getByText('Microphone muted')).toBeVisible();
  // After a margin for what was on its way (the echo's 300 ms and the jitter buffer), a second of silence.
  await expect.poll(async () => rms((await heard.last(1)).samples), { timeout: 10_000 }).toBeLessThan(0.001);
  await expect(bar).toContainText(/0:0[2-9]|0:[1-5]\d/);

  // The call goes on while the user looks at another page, and can be ended from there.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Phone Management' })).toBeVisible();
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(page.getByText('Call ended')).toBeVisible();
  await expect(bar).toBeHidden();

  // The call is in Call History with its duration; clicking it calls again.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await page.getByRole('tab', { name: 'Call History' }).click();
  const entry = page.getByRole('list', { name: 'Recent calls' }).getByRole('listitem').first();
  await expect(entry).toContainText('+1 (415) 555-0100');
  await expect(entry).toContainText('Completed');
  await expect(entry).toContainText(/0:0[2-9]|0:[1-5]\d/);
  await entry.getByRole('button', { name: 'Redial +1 (415) 555-0100' }).click();
  await expect(page.getByRole('region', { name: 'Active call' })).toBeVisible();
  await expect(page.getByText('Call connected')).toBeVisible();
  await page.getByRole('region', { name: 'Active call' }).getByRole('button', { name: 'End call' }).click();
  await expect(page.getByRole('region', { name: 'Active call' })).toBeHidden();
});

test('dialling needs a number, and the input keeps digits only', async ({ page }) => {
  const email = uniqueEmail('dialer');
  await signUpThroughPage(page, 'Dialer Two', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, '312');
  await page.goto('/dialer');

  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByText('Please enter a phone number to call')).toBeVisible();

  const input = page.getByLabel('Phone number');
  await input.pressSequentially('41a5-5');
  await expect(input).toHaveValue('4155');
  await page.getByRole('button', { name: 'Delete last digit' }).click();
  await expect(input).toHaveValue('415');
  await page.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: '7' }).click();
  await expect(input).toHaveValue('4157');

  await page.getByRole('button', { name: /^Country: United States/ }).click();
  await page.getByRole('textbox', { name: 'Search countries...' }).fill('nig');
  await page.getByRole('group', { name: 'All Countries' }).getByRole('option', { name: /Nigeria/ }).click();
  await expect(page.getByRole('button', { name: 'Country: Nigeria +234' })).toBeVisible();
});
