import { expect, test } from './fixtures';
import { rentFirstNumberThroughPage } from './support/numbers';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

/**
 * docs/calls.md#call-details (issue 20 item 4): the active call's "Call details" show its audio's
 * figures, read every second, and the call record keeps their averages and worst for Call History.
 * UPDATE_SCREENSHOTS=1 also writes docs/screenshots/call-details.png.
 */
test('call details: a sound-test call shows figures that change while it is up, and Call History keeps them', async ({ launchWithMicrophone }) => {
  test.setTimeout(120_000);
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 60, amplitude: 0.3, silenceSeconds: 0 }), { loop: true });
  const email = uniqueEmail('details');
  await signUpThroughPage(page, 'Line Watcher', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, '808');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await expect(page).toHaveURL(/\/dialer$/);

  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  await expect(page.getByText('Call connected')).toBeVisible();
  const bar = page.getByRole('region', { name: 'Active call' });
  const toggle = bar.getByRole('button', { name: 'Call details' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const details = bar.getByRole('region', { name: 'Call details' });
  const figure = (term: string) => details.locator(`[data-figure="${term}"]`);

  await expect(figure('Transport')).toHaveText('WebRTC', { timeout: 15_000 });
  await expect(figure('Codec')).toHaveText('Opus');
  await expect(figure('Quality')).toHaveText(/^(Good|Fair|Poor)$/);
  await expect(figure('Voice changer delay')).toHaveText('None');
  await expect(figure('Round trip')).toHaveText(/^\d+ ms$/);
  await expect(figure('Jitter')).toHaveText(/^\d+ ms$/);
  // The microphone's 440 Hz is heard: its level is above zero.
  await expect.poll(async () => Number(await details.getByRole('meter', { name: 'Microphone level' }).getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(0);

  // The figures change as the call goes on: the packets received keep counting.
  const received = async () => Number(/^([\d,]+) received/.exec((await figure('Packets').textContent()) ?? '')?.[1]?.replaceAll(',', '') ?? NaN);
  await expect.poll(received, { timeout: 15_000 }).toBeGreaterThan(0);
  const first = await received();
  await expect.poll(received, { timeout: 15_000 }).toBeGreaterThan(first);

  if (process.env.UPDATE_SCREENSHOTS === '1') {
    // The notices of the call's start would cover the bar's buttons.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await bar.screenshot({ path: 'docs/screenshots/call-details.png', animations: 'disabled' });
  }

  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();
  await page.getByRole('tab', { name: 'Call History' }).click();
  const history = page.getByRole('list', { name: 'Recent calls' });
  await expect(history.getByRole('listitem').first()).toContainText(/Quality: (Good|Fair|Poor).* · Opus · round trip \d+ ms \(worst \d+ ms\)/, { timeout: 15_000 });
});
