import { expect, type Page } from '@playwright/test';

/**
 * Rents the first number the Add Number dialog finds for `pattern`, from a page with no number yet;
 * answers it as the app shows it: +1 (AAA) BBB-CCCC.
 */
export async function rentFirstNumberThroughPage(page: Page, pattern: string) {
  await page.getByRole('button', { name: 'Add Your First Number' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Number' });
  await dialog.getByLabel('Pattern').fill(pattern);
  await dialog.getByRole('button', { name: 'Search' }).click();
  const select = dialog.getByRole('button', { name: /^Select / }).first();
  const shown = ((await select.getAttribute('aria-label')) ?? '').replace(/^Select /, '');
  await select.click();
  await dialog.getByRole('button', { name: 'Add Number' }).click();
  await expect(page.getByText('Phone number added')).toBeVisible();
  return shown;
}
