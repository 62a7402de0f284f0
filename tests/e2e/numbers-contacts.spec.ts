import { expect, test } from './fixtures';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/** The Phone Management page against the real server and its built-in virtual carrier. */

test('a new user rents a number, then adds, edits, finds, calls and deletes a contact', async ({ page }) => {
  const email = uniqueEmail('numbers');
  await signUpThroughPage(page, 'Ada Lovelace', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Phone Management' })).toBeVisible();

  // Rent a US number starting 415, with a friendly name.
  const numbers = page.getByRole('region', { name: 'Phone Numbers' });
  await expect(numbers.getByText("You don't have any phone numbers yet.")).toBeVisible();
  await numbers.getByRole('button', { name: 'Add Your First Number' }).click();
  const addNumber = page.getByRole('dialog', { name: 'Add Number' });
  await expect(addNumber.getByRole('combobox', { name: 'Country' })).toContainText('United States');
  await expect(addNumber.getByRole('button', { name: 'Add Number' })).toBeDisabled();
  await addNumber.getByLabel('Pattern').fill('415');
  await addNumber.getByRole('button', { name: 'Search' }).click();

  const firstOffer = addNumber.getByRole('list', { name: 'Available numbers' }).getByRole('button', { name: /^Select / }).first();
  await expect(firstOffer).toHaveAccessibleName(/^Select \+1 \(415\) \d{3}-\d{4}$/);
  const rented = (await firstOffer.getAttribute('aria-label'))!.replace('Select ', '');
  await firstOffer.click();
  await expect(firstOffer).toHaveAttribute('aria-pressed', 'true');
  await addNumber.getByLabel('Friendly Name').fill('Office line');
  await addNumber.getByRole('button', { name: 'Add Number' }).click();

  await expect(page.getByText('Phone number added')).toBeVisible();
  await expect(addNumber).toBeHidden();
  const listed = numbers.getByRole('list', { name: 'Your phone numbers' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(rented);
  await expect(listed).toContainText('Active');
  await expect(listed).toContainText('Office line');

  // Add two contacts; the number without a country code is read as a US one.
  const contacts = page.getByRole('region', { name: 'Your Contacts' });
  await expect(contacts.getByText("You don't have any contacts yet")).toBeVisible();
  for (const [name, phone, mail] of [
    ['Grace Hopper', '(213) 373-4253', 'grace@example.com'],
    ['Alan Turing', '+44 20 7946 0958', ''],
  ] as const) {
    await contacts.getByRole('button', { name: 'Add Contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Contact' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Phone Number').fill(phone);
    await dialog.getByLabel('Email (optional)').fill(mail);
    await dialog.getByRole('button', { name: 'Add Contact' }).click();
    await expect(dialog).toBeHidden();
    await expect(contacts.getByRole('cell', { name, exact: true })).toBeVisible();
  }
  await expect(page.getByText('Contact added').first()).toBeVisible();
  const grace = contacts.getByRole('row').filter({ hasText: 'Grace Hopper' });
  await expect(grace).toContainText('+1 (213) 373-4253');
  await expect(grace).toContainText('grace@example.com');

  // Edit one.
  await contacts.getByRole('button', { name: 'Edit Grace Hopper' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Contact' });
  await expect(edit.getByLabel('Phone Number')).toHaveValue('+12133734253');
  await edit.getByLabel('Name').fill('Grace Brewster Hopper');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Contact updated')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(contacts.getByRole('cell', { name: 'Grace Brewster Hopper', exact: true })).toBeVisible();

  // Search by name, by number and for nobody.
  const search = contacts.getByPlaceholder('Search contacts...');
  const bodyRows = contacts.getByRole('row').filter({ has: page.getByRole('cell') });
  await search.fill('BREWSTER');
  await expect(bodyRows).toHaveCount(1);
  await expect(bodyRows).toContainText('Grace Brewster Hopper');
  await search.fill('7946');
  await expect(bodyRows).toHaveCount(1);
  await expect(bodyRows).toContainText('Alan Turing');
  await search.fill('nobody here');
  await expect(contacts.getByText('No contacts match your search')).toBeVisible();
  await search.fill('');
  await expect(bodyRows).toHaveCount(2);

  // Start a call from a contact: the dialer opens with the number.
  await contacts.getByRole('button', { name: 'Call Grace Brewster Hopper' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/dialer' && url.searchParams.get('to') === '+12133734253');
  await expect(page.getByRole('button', { name: /^Country: United States/ })).toBeVisible();
  await expect(page.getByLabel('Phone number')).toHaveValue('2133734253');

  // Back on the page, delete the contact after the confirmation.
  await page.goBack();
  await contacts.getByRole('button', { name: 'Delete Grace Brewster Hopper' }).click();
  const confirmation = page.getByRole('alertdialog', { name: 'Are you sure you want to delete Grace Brewster Hopper?' });
  await confirmation.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Contact deleted')).toBeVisible();
  await expect(confirmation).toBeHidden();
  await expect(bodyRows).toHaveCount(1);
  await expect(contacts.getByRole('cell', { name: 'Grace Brewster Hopper', exact: true })).toBeHidden();

  // On a phone-sized screen nothing runs off the side of the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(contacts.getByRole('columnheader', { name: 'Email' })).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
