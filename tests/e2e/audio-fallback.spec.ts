import { rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';
import { expectToHear, listenTo } from './support/heard-audio';
import { blockUdp } from './support/no-udp';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';
import { rentFirstNumberThroughPage } from './support/numbers';

/**
 * A network that lets no UDP through (a strict firewall, no TURN): WebRTC cannot connect, so the
 * call's audio falls back to its media websocket carrying Opus, and is heard just the same
 * (docs/calls.md#media).
 */
test('with UDP blocked, a call to the sound-test line falls back to the websocket, and the 440 Hz comes back', async ({ launchWithMicrophone }) => {
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 60 }), { loop: true });
  await blockUdp(page);
  const heard = await listenTo(page);
  const email = uniqueEmail('fallback');
  await signUpThroughPage(page, 'Fallback Caller', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);

  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, '512');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname + new URL(socket.url()).search));
  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(page.getByText('Call connected')).toBeVisible();
  await expect(bar.getByRole('note', { name: 'Audio path' })).toHaveText('Audio: WebSocket (Opus)', { timeout: 15_000 });
  expect(sockets.some((path) => /^\/api\/v1\/calls\/[^/]+\/media\?codec=opus$/.test(path))).toBe(true);

  await expectToHear(heard, 440);

  await bar.getByRole('button', { name: 'Mute' }).click();
  await expect.poll(async () => rms((await heard.last(1)).samples), { timeout: 10_000 }).toBeLessThan(0.001);
  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();

  // The history says which way the audio went.
  await page.getByRole('tab', { name: 'Call History' }).click();
  await expect(page.getByRole('list', { name: 'Recent calls' }).getByRole('listitem').first()).toContainText('Audio: WebSocket (Opus)');
});
