import { expect, test } from './fixtures';
import { payWith, subscribe, SUCCESS_CARD } from './support/checkout';
import { mailTo } from './support/outbox';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/**
 * Issue 19 item 6: Platinum's "24/7 support" is real. A Platinum user writes to support from
 * Settings › Support, sees their level and when the answer is due; the support inbox (support@ the
 * domain of MAIL_FROM) gets the request tagged [24/7], and the user an acknowledgement.
 */
test('a Platinum user sends a request from Settings and is told it is 24/7 support and when the answer is due', async ({ page }) => {
  const email = uniqueEmail('support');
  await signUpThroughPage(page, 'Sam Support', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await subscribe(page, 'Platinum');
  await payWith(page, SUCCESS_CARD);
  await expect(page.getByRole('article', { name: 'Subscription Payment Confirmation' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription', exact: true }).click();
  await page.getByRole('tab', { name: 'Support' }).click();
  await expect(page).toHaveURL(/[?&]tab=support/);
  const level = page.getByRole('region', { name: 'Your support level' });
  await expect(level).toContainText('Platinum: 24/7 support');
  await expect(level).toContainText('Answered within 2 hours, any day.');
  await expect(page.getByText('You have not written to support yet.')).toBeVisible();

  const form = page.getByRole('form', { name: 'Message to support' });
  await form.getByRole('button', { name: 'Send to support' }).click();
  await expect(form.getByText('Subject is required')).toBeVisible();
  await form.getByRole('textbox', { name: 'Subject' }).fill('Callers hear an echo');
  await form.getByRole('textbox', { name: 'Message' }).fill('Since this morning every caller hears an echo of their own voice.');
  await form.getByRole('button', { name: 'Send to support' }).click();

  await expect(form.getByText(/^Message sent\. We will answer by .+\.$/)).toBeVisible();
  const requests = page.getByRole('list', { name: 'Your requests' });
  await expect(requests.getByRole('listitem')).toHaveCount(1);
  await expect(requests.getByRole('listitem').first()).toContainText('Callers hear an echo');
  await expect(requests.getByRole('listitem').first()).toContainText('answer due by');

  await mailTo(page, 'support@voxline.localhost', '[24/7] Callers hear an echo');
  await mailTo(page, email, 'We received your support request: Callers hear an echo');
});
