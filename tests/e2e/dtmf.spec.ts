import type { Page } from '@playwright/test';
import { readPlayedAudio } from '../../bench/network/played-audio';
import { detectDtmf } from '../../src/dsp/dtmf';
import { rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';
import { listenTo, toneOf } from './support/heard-audio';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';
import { rentFirstNumberThroughPage } from './support/numbers';

// docs/calls.md#touch-tones: before a call `*` and `#` type into the number but are not dialled;
// during a call the keypad's keys (and the keyboard's) go into the call's audio as dual tones,
// which the sound-test line echoes back to the page.
test('touch-tones: * and # typed before a call are refused for dialling; pressed during a sound-test call, they come back in the echo', async ({ launchWithMicrophone }) => {
  test.setTimeout(120_000);
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 220, seconds: 60, amplitude: 0.2, silenceSeconds: 0 }), { loop: true });
  const heard = await listenTo(page);
  const email = uniqueEmail('dtmf');
  await signUpThroughPage(page, 'Tone Dialler', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  await rentFirstNumberThroughPage(page, '808');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();

  // Typed (not pressed on the keypad, whose key tones would start an audio context of their own before the call's).
  await expect(page).toHaveURL(/\/dialer$/);
  const input = page.getByRole('textbox', { name: 'Phone number' });
  await input.pressSequentially('55*#');
  await expect(input).toHaveValue('55*#');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByText('Phone number can hold digits only')).toBeVisible();
  await expect(page.getByText('* and # are touch-tones: press them once the call is connected')).toBeVisible();
  await input.fill('');

  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(page.getByText('Call connected')).toBeVisible();
  // The echo of the microphone's 220 Hz is playing. The call's own audio context is the one that
  // plays it: the page has others (the key tones', a level meter's), started before or after it.
  // Read until it holds, as expectToHear does, and by its measure (toneOf): on a loaded machine the
  // tone breaks where the jitter buffer conceals or drops a frame.
  await expect.poll(async () => rms((await heard.last(1)).samples), { timeout: 15_000 }).toBeGreaterThan(0.01);
  let playingTheEcho: Awaited<ReturnType<typeof readPlayedAudio>> = [];
  await expect
    .poll(
      async () => {
        playingTheEcho = (await readPlayedAudio(page, 1)).filter(
          (recording) => recording.kind === 'audio-context' && recording.startEpochMs !== null && Math.abs((toneOf(recording) ?? 0) - 220) < 10,
        );
        return playingTheEcho.length;
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  const [callContext] = playingTheEcho;

  // The dialer's keypad during the call, then the keyboard. On a starved machine (CI's host beside
  // other work) the page's playback breaks off now and then, and a key that sounded in a break is
  // not heard: the keys are pressed again then, never when the echo held no break.
  const keypad = page.getByRole('group', { name: 'Keypad' });
  for (let attempt = 1; ; attempt += 1) {
    const pressedAt = Date.now();
    for (const name of ['1', '5', '9', 'Pound']) await keypad.getByRole('button', { name, exact: true }).click();
    await page.keyboard.press('*');
    await expect(input).toHaveValue('');
    // Reading the page's audio is work for its main thread, where the tap records: reads while the
    // echo played the tones back made it miss some on a loaded machine. The first read waits until
    // five tones (240 ms each) and the echo's 300 ms delay are over.
    await page.waitForTimeout(3_000);
    const readUntil = Date.now() + 10_000;
    let heard = await keysHeardSince(page, callContext!.startEpochMs!, pressedAt);
    while (heard.keys !== '159#*' && Date.now() < readUntil) {
      await page.waitForTimeout(500);
      heard = await keysHeardSince(page, callContext!.startEpochMs!, pressedAt);
    }
    if (heard.keys === '159#*') break;
    expect(heard.breaks, `heard '${heard.keys}' for 159#*, with no break in the echo`).toBeGreaterThan(0);
    expect(attempt, `heard '${heard.keys}' for 159#*, the echo breaking off ${heard.breaks} times`).toBeLessThan(3);
    test.info().annotations.push({ type: 'pressed again', description: `heard '${heard.keys}', the echo breaking off ${heard.breaks} times in 20 ms pieces` });
  }

  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();
});

/** The echo's 220 Hz plays throughout at about 0.016 RMS: a 20 ms piece under a third of that is a break in the page's playback. */
const BREAK_RMS = 0.005;
const PIECE_SECONDS = 0.02;

/** The keys the call's context (`startEpochMs`) played since `pressedAt`, and how many 20 ms pieces of that time were breaks. */
async function keysHeardSince(page: Page, startEpochMs: number, pressedAt: number) {
  // Everything played since the first key, however slowly this machine reads it back.
  const seconds = (Date.now() - pressedAt) / 1000 + 1;
  const recording = (await readPlayedAudio(page, seconds)).find((candidate) => candidate.kind === 'audio-context' && candidate.startEpochMs === startEpochMs);
  if (!recording) return { keys: '', breaks: 0 };
  const { samples, sampleRate } = recording;
  const piece = Math.round(PIECE_SECONDS * sampleRate);
  let breaks = 0;
  for (let start = 0; start + piece <= samples.length; start += piece) if (rms(samples.subarray(start, start + piece)) < BREAK_RMS) breaks += 1;
  // No two pressed keys are alike, so a key heard twice in a row is one tone a dropout of the
  // starved page's playback split (the detector bridges one block, src/dsp/dtmf.ts).
  return { keys: detectDtmf(samples, sampleRate).replace(/(.)\1+/g, '$1'), breaks };
}
