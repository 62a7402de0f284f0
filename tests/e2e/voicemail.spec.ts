import type { Page } from '@playwright/test';
import { VOICEMAIL_BEEP } from '../../src/server/media/voicemail-party';
import { dominantFrequency, rms } from '../support/dsp/analysis';
import { expect, test, type LaunchWithMicrophone } from './fixtures';
import { listenTo } from './support/heard-audio';
import { rentFirstNumberThroughPage } from './support/numbers';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

/**
 * Issue 19, voicemail: a call nobody takes goes to voicemail. A calls B's number while B has no tab
 * listening; A hears the greeting and the beep, and A's microphone (a 440 Hz tone) speaks for a few
 * seconds. B's open tabs show the message as it arrives, without a reload, and it plays back the tone.
 *
 * The numbers come from area codes no other spec rents from (see accessibility.spec.ts), so specs
 * running side by side never race for one number.
 */

const CALLER_HZ = 440;

/** A person with a fake microphone playing a looping tone, signed up, logged in, owning one number (E.164). */
async function newPerson(launchWithMicrophone: LaunchWithMicrophone, name: string, frequency: number, pattern: string) {
  const { page, context } = await launchWithMicrophone(writeSineWav({ frequency, seconds: 10, silenceSeconds: 0 }), { loop: true });
  const heard = await listenTo(page);
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  await signUpThroughPage(page, name, email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, pattern);
  const shown = (await page.getByRole('list', { name: 'Your phone numbers' }).getByRole('listitem').first().textContent()) ?? '';
  const match = /\+1 \((\d{3})\) (\d{3})-(\d{4})/.exec(shown);
  expect(match, `a number of ${name} on the Contacts page`).not.toBeNull();
  return { page, context, heard, number: `+1${match![1]}${match![2]}${match![3]}`, shown: match![0] };
}

/** The voicemail link in the bar, whatever its count says. */
function voicemailLink(page: Page) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Voicemail/ });
}

/** Fetches a message's audio in the page, as the player would, and decodes it there: mono samples and their rate. */
async function decodedMessage(page: Page, id: string) {
  const { samples, sampleRate } = await page.evaluate(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const audio = await new OfflineAudioContext(1, 1, 48_000).decodeAudioData(await response.arrayBuffer());
    return { samples: Array.from(audio.getChannelData(0)), sampleRate: audio.sampleRate };
  }, `/api/v1/voicemail/${id}/audio`);
  return { samples: Float32Array.from(samples), sampleRate };
}

test('a caller leaves a voicemail; the owner’s open tabs show it as it arrives, it plays the caller’s tone, and hearing it clears the count', async ({ launchWithMicrophone }) => {
  test.setTimeout(150_000);
  const [caller, owner] = await Promise.all([
    newPerson(launchWithMicrophone, 'Caller Ines', CALLER_HZ, '479'),
    newPerson(launchWithMicrophone, 'Owner Otto', 660, '865'),
  ]);

  // The owner has two tabs open, neither listening for calls: the dialer and the Voicemail page.
  await owner.page.goto('/dialer');
  await expect(voicemailLink(owner.page)).toHaveAccessibleName('Voicemail');
  const list = await owner.context.newPage();
  await list.goto('/voicemail');
  await expect(list.getByRole('heading', { level: 1, name: 'Voicemail' })).toBeVisible();
  await expect(list.getByText('No voicemail yet')).toBeVisible();

  // The caller dials, hears the greeting and then the beep, speaks (the tone) for about 3 s, and hangs up.
  await caller.page.goto('/dialer');
  await expect(caller.page.getByRole('button', { name: /^Country: United States \+1/ })).toBeVisible();
  await caller.page.getByLabel('Phone number').fill(owner.number.slice(2));
  await caller.page.getByRole('button', { name: 'Call', exact: true }).click();
  const bar = caller.page.getByRole('region', { name: 'Active call' });
  await expect(bar).toBeVisible();
  await expect
    .poll(
      async () => {
        const { samples, sampleRate } = await caller.heard.last(0.3);
        return rms(samples) > 0.01 && Math.abs(dominantFrequency(samples, sampleRate) - VOICEMAIL_BEEP.hz) < VOICEMAIL_BEEP.hz * 0.02;
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBe(true);
  await caller.page.waitForTimeout(3_500);
  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();

  // Both of the owner's tabs learn of it through the realtime socket: a notice, the count, the list.
  await expect(owner.page.getByText(`New voicemail from ${caller.shown}`)).toBeVisible({ timeout: 20_000 });
  await expect(voicemailLink(owner.page)).toHaveAccessibleName('Voicemail, 1 unheard');
  await expect(list.getByText(`New voicemail from ${caller.shown}`)).toBeVisible();
  await expect(voicemailLink(list)).toHaveAccessibleName('Voicemail, 1 unheard');
  const message = list.getByRole('list', { name: 'Voicemail messages' }).getByRole('listitem');
  await expect(message).toHaveCount(1);
  await expect(message.getByRole('heading', { name: `${caller.shown}, unheard` })).toBeVisible();
  await expect(message).toContainText(/0:0[2-8]/);
  const id = ((await message.getAttribute('id')) ?? '').replace(/^voicemail-/, '');
  expect(id).not.toBe('');

  // What was kept is the caller's tone, about 3 s of it.
  const { samples, sampleRate } = await decodedMessage(list, id);
  expect(samples.length / sampleRate).toBeGreaterThan(2);
  const middle = samples.subarray(Math.floor(samples.length / 2 - sampleRate / 2), Math.floor(samples.length / 2 + sampleRate / 2));
  expect(rms(middle)).toBeGreaterThan(0.01);
  expect(Math.abs(dominantFrequency(middle, sampleRate) - CALLER_HZ)).toBeLessThan(CALLER_HZ * 0.02);

  // Playing it in the page's player plays the audio and marks it heard: the count goes.
  const player = message.getByLabel(`Message from ${caller.shown}`);
  await player.evaluate((audio: HTMLAudioElement) => audio.play());
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
  await expect(voicemailLink(list)).toHaveAccessibleName('Voicemail');
  await expect(message.getByRole('heading', { name: caller.shown, exact: true })).toBeVisible();

  // The buttons mark it unheard and heard again, the count following.
  await message.getByRole('button', { name: 'Mark as unheard' }).click();
  await expect(voicemailLink(list)).toHaveAccessibleName('Voicemail, 1 unheard');
  await message.getByRole('button', { name: 'Mark as heard' }).click();
  await expect(voicemailLink(list)).toHaveAccessibleName('Voicemail');

  // The caller's record of the call is the owner's missed call, which links to the message.
  await owner.page.getByRole('tab', { name: 'Call History' }).click();
  const missed = owner.page.getByRole('list', { name: 'Recent calls' }).getByRole('listitem').first();
  await expect(missed).toContainText('Missed');
  await missed.getByRole('link', { name: `Voicemail from ${caller.shown}` }).click();
  await expect(owner.page).toHaveURL(new RegExp(`/voicemail#voicemail-${id}$`));
  await expect(owner.page.locator(`#voicemail-${id}`)).toBeVisible();

  // Deleting asks first, then the message is gone.
  await message.getByRole('button', { name: 'Delete' }).click();
  await list.getByRole('alertdialog', { name: 'Delete this voicemail?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(list.getByText('No voicemail yet')).toBeVisible();
});
