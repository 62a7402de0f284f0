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

  // The dialer's keypad during the call, then the keyboard.
  const pressedAt = Date.now();
  const keypad = page.getByRole('group', { name: 'Keypad' });
  for (const name of ['1', '5', '9', 'Pound']) await keypad.getByRole('button', { name, exact: true }).click();
  await page.keyboard.press('*');
  await expect(input).toHaveValue('');
  // Reading the page's audio is work for its main thread, where the tap records: reads while the
  // echo played the tones back made it miss some on a loaded machine. The first read waits until
  // five tones (240 ms each) and the echo's 300 ms delay are over.
  await page.waitForTimeout(3_000);

  await expect
    .poll(
      async () => {
        // Everything played since the first key, however slowly this machine reads it back.
        const secondsSincePressed = (Date.now() - pressedAt) / 1000 + 1;
        const recording = (await readPlayedAudio(page, secondsSincePressed)).find((candidate) => candidate.kind === 'audio-context' && candidate.startEpochMs === callContext!.startEpochMs);
        // No two pressed keys are alike, so a key heard twice in a row is one tone a dropout of
        // the starved page's playback split (the detector bridges one block, src/dsp/dtmf.ts).
        return recording ? detectDtmf(recording.samples, recording.sampleRate).replace(/(.)\1+/g, '$1') : '';
      },
      { timeout: 20_000 },
    )
    .toBe('159#*');

  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();
});
