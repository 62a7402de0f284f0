import { rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';
import { listenTo } from './support/heard-audio';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';

/**
 * Issue 21 item 5: someone who cannot record plays the sample sentence through the Voice Changer's
 * preview, which the server serves with the app and the browser runs through the voice engine.
 */
test('a user without a microphone plays the sample sentence in the Voice Changer and hears it', async ({ page }) => {
  const heard = await listenTo(page);
  const email = uniqueEmail('sample-sentence');
  await signUpThroughPage(page, 'Sample Listener', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call Settings', exact: true }).click();
  const served = page.waitForResponse((response) => response.url().endsWith('/sounds/sample-sentence.wav'));
  await page.getByRole('button', { name: 'Play sample sentence' }).click();
  expect((await served).status()).toBe(200);
  const status = page.getByRole('status').filter({ hasText: /sample sentence|microphone/ });
  await expect(status).toHaveText('Playing the sample sentence with your voice settings.', { timeout: 15_000 });

  // About 3.5 s of speech, then the panel is ready again. Read until it holds: a starved page
  // thread delays what the tap records.
  await expect.poll(async () => rms((await heard.last(3)).samples), { timeout: 15_000 }).toBeGreaterThan(0.02);
  await expect.poll(() => heard.seconds(), { timeout: 20_000 }).toBeGreaterThan(3);
  await expect(status).toContainText('No microphone? Play the sample sentence instead.', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Play sample sentence' })).toBeEnabled();
});
