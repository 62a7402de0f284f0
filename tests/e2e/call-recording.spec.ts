import type { Page } from '@playwright/test';
import { installPlayedAudioTap, readPlayedAudio } from '../../bench/network/played-audio';
import { dominantFrequency, rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';
import { payWith, subscribe, SUCCESS_CARD } from './support/checkout';
import { expectToHear } from './support/heard-audio';
import { rentFirstNumberThroughPage } from './support/numbers';
import { logInThroughPage, signUpThroughPage, uniqueEmail } from './support/users';
import { writeSineWav } from './support/wav';

const RECORDING_PLAYER = 'audio[aria-label^="Recording of the call"]';

/**
 * What the page plays from the AudioContext started last: the one this spec routes the recording's
 * <audio> through (the tap hears contexts, not media elements playing a URL), not the call's,
 * which may still be running.
 */
function listenToLatestContext(page: Page) {
  const latest = async (seconds?: number) => {
    const played = (await readPlayedAudio(page, seconds)).filter((recording) => recording.kind === 'audio-context' && recording.startEpochMs !== null);
    return played.sort((a, b) => b.startEpochMs! - a.startEpochMs!)[0] ?? null;
  };
  return {
    async seconds() {
      const recording = await latest(0);
      return recording ? recording.totalSamples / recording.sampleRate : 0;
    },
    async last(seconds: number) {
      const recording = await latest(seconds);
      if (!recording) return { samples: new Float32Array(0), sampleRate: 48_000 };
      const wanted = Math.round(seconds * recording.sampleRate);
      return { samples: recording.samples.subarray(Math.max(0, recording.samples.length - wanted)), sampleRate: recording.sampleRate };
    },
  };
}

/** Plays the Call History player, in a loop, through a context of the page: one channel of it, the other left out. */
async function playChannel(page: Page, channel: 0 | 1) {
  await page.evaluate(
    async ({ selector, channel }) => {
      const player = document.querySelector<HTMLAudioElement>(selector)!;
      const context = new AudioContext();
      const splitter = context.createChannelSplitter(2);
      context.createMediaElementSource(player).connect(splitter);
      splitter.connect(context.destination, channel);
      player.loop = true;
      await context.resume();
      await player.play();
    },
    { selector: RECORDING_PLAYER, channel },
  );
}

/** The recording as the browser decodes it: its length and a second from the middle of each channel. */
async function decodeRecording(page: Page, url: string) {
  const decoded = await page.evaluate(async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer();
    const audio = await new AudioContext().decodeAudioData(bytes);
    const middle = Math.max(0, Math.floor(audio.length / 2 - audio.sampleRate / 2));
    const second = (channel: number) => Array.from(audio.getChannelData(channel).subarray(middle, middle + audio.sampleRate));
    return { seconds: audio.duration, channels: audio.numberOfChannels, sampleRate: audio.sampleRate, left: second(0), right: audio.numberOfChannels > 1 ? second(1) : [] };
  }, url);
  return decoded;
}

/**
 * Issue 19 item 1: a Premium user records a call to the sound-test line with a 440 Hz tone on the
 * microphone, then finds it in Call History: it plays (through the audio route, with byte ranges)
 * and both channels carry the tone (the user's voice, and the echo they heard); it downloads as a
 * file; Settings counts it; and deleting it removes it and its audio.
 */
test('a Premium user records a call, plays it back from Call History, hears the tone, and deletes it', async ({ launchWithMicrophone }) => {
  test.setTimeout(180_000);
  const { page } = await launchWithMicrophone(writeSineWav({ frequency: 440, seconds: 10, silenceSeconds: 0 }), { loop: true });
  await installPlayedAudioTap(page);
  const email = uniqueEmail('recording');
  await signUpThroughPage(page, 'Record Keeper', email);
  await logInThroughPage(page, email);
  await expect(page).toHaveURL(/\/dialer$/);
  await page.goto('/contacts');
  // An area code no other spec rents from, so specs side by side never race for one number.
  await rentFirstNumberThroughPage(page, '802');
  await subscribe(page, 'Premium');
  await payWith(page, SUCCESS_CARD);
  await expect(page.getByRole('article', { name: 'Subscription Payment Confirmation' })).toBeVisible();

  // Call the sound-test line and record about 4 s of it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await page.getByRole('button', { name: /^Call the sound-test line/ }).click();
  const bar = page.getByRole('region', { name: 'Active call' });
  await expect(page.getByText('Call connected')).toBeVisible();
  // The recording starts between the press and the button's change (the server's answer, which a
  // loaded machine can hold up for a second or more): its length is bounded by both.
  const pressedAt = Date.now();
  await bar.getByRole('button', { name: /record/i }).click();
  await expect(bar.getByRole('button', { name: /stop recording/i })).toBeVisible();
  const recordingFrom = Date.now();
  // The length of the recording is what this test checks against: it must span real time.
  await page.waitForTimeout(4_000);
  await bar.getByRole('button', { name: 'End call' }).click();
  const endedAt = Date.now();
  await expect(bar).toBeHidden();

  // Call History offers it once the recorder has finished the file.
  const history = page.getByRole('list', { name: 'Recent calls' });
  const section = history.getByRole('listitem').first().getByRole('region', { name: 'Recording' });
  await expect(async () => {
    await page.goto('/dialer');
    await page.getByRole('tab', { name: 'Call History' }).click();
    await expect(section).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const player = section.locator('audio');
  await expect(player).toHaveAttribute('preload', 'none');
  const audioUrl = (await player.getAttribute('src'))!;
  expect(audioUrl).toMatch(/^\/api\/v1\/recordings\/[0-9a-f-]{36}\/audio$/);

  // Both channels carry the tone: channel 1 the user's voice, channel 2 the echo they heard.
  const decoded = await decodeRecording(page, audioUrl);
  expect(decoded.channels).toBe(2);
  expect(decoded.seconds).toBeGreaterThan((endedAt - recordingFrom) / 1000 - 1.5);
  expect(decoded.seconds).toBeLessThan((endedAt - pressedAt) / 1000 + 1.5);
  for (const channel of [decoded.left, decoded.right]) {
    expect(rms(channel)).toBeGreaterThan(0.01);
    expect(Math.abs(dominantFrequency(channel, decoded.sampleRate) - 440)).toBeLessThan(440 * 0.02);
  }

  // The player in the page plays it (asking for byte ranges), and the user hears the tone.
  await playChannel(page, 0);
  await expectToHear(listenToLatestContext(page), 440);

  // Seeking is served by ranges: a range answers 206 with those bytes of the Ogg file, one past the end 416.
  const ranged = await page.evaluate(async (url) => {
    const head = await fetch(url, { headers: { range: 'bytes=0-3' } });
    const magic = new TextDecoder().decode(await head.arrayBuffer());
    const beyond = await fetch(url, { headers: { range: 'bytes=99999999-' } });
    return { status: head.status, range: head.headers.get('content-range'), magic, beyondStatus: beyond.status };
  }, audioUrl);
  expect(ranged).toMatchObject({ status: 206, magic: 'OggS', beyondStatus: 416 });
  expect(ranged.range).toMatch(/^bytes 0-3\/\d+$/);

  // Downloading saves it as a file named for the call.
  const download = section.getByRole('link', { name: /^Download recording of the call with \+1 \(415\) 555-0100/ });
  const [saved] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(saved.suggestedFilename()).toMatch(/^voxline-recording-\d{4}-\d{2}-\d{2}-\d{6}\.ogg$/);

  // Settings counts the bytes it takes.
  await page.goto('/settings?tab=subscription');
  const storage = page.getByLabel('Subscription status');
  await expect(storage).toContainText(/Storage used\d+(\.\d)? kB/);

  // Deleting it asks first, then removes it from the history and its audio from the server.
  await page.goto('/dialer');
  await page.getByRole('tab', { name: 'Call History' }).click();
  await section.getByRole('button', { name: /^Delete recording of the call with/ }).click();
  await page.getByRole('alertdialog', { name: 'Delete this recording?' }).getByRole('button', { name: 'Delete recording' }).click();
  await expect(page.getByText('Recording deleted')).toBeVisible();
  await expect(history.getByRole('region', { name: 'Recording' })).toHaveCount(0);
  await expect(history.getByRole('listitem').first()).toContainText('+1 (415) 555-0100');
  expect(await page.evaluate(async (url) => (await fetch(url)).status, audioUrl)).toBe(404);
});
