import type { Page } from '@playwright/test';
import { installPlayedAudioTap, readPlayedAudio } from '../../bench/network/played-audio';
import { dominantFrequency, rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';

/**
 * Proves the network bench's ear, not the app: the tap hears what a page plays through an
 * AudioContext, and a MediaStream an <audio> element plays, as a remote WebRTC stream is.
 */

/** Any loopback origin is a secure context, which AudioWorklet needs; data: URLs are not. */
const PAGE_URL = 'http://localhost/played-audio-tap';

/** Serves a page whose button starts a 440 Hz oscillator, played as `how` says. */
async function openTonePage(page: Page, how: 'audio-context' | 'media-element') {
  const play =
    how === 'audio-context'
      ? 'oscillator.connect(context.destination);'
      : 'const sink = context.createMediaStreamDestination(); oscillator.connect(sink); const audio = new Audio(); audio.srcObject = sink.stream; audio.play();';
  const html = `<button id="play">play</button><script>
    document.getElementById('play').onclick = () => {
      const context = new AudioContext();
      const oscillator = new OscillatorNode(context, { frequency: 440 });
      ${play}
      oscillator.start();
    };
  </script>`;
  await page.route(PAGE_URL, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(PAGE_URL);
}

/** The recording of `kind` once it holds a second of audio. */
async function secondOfPlayedAudio(page: Page, kind: 'audio-context' | 'media-element') {
  let recordings: Awaited<ReturnType<typeof readPlayedAudio>> = [];
  await expect
    .poll(
      async () => {
        recordings = await readPlayedAudio(page);
        return recordings.find((recording) => recording.kind === kind)?.samples.length ?? 0;
      },
      { message: `a second of ${kind} audio`, timeout: 10_000 },
    )
    .toBeGreaterThan(48_000);
  return recordings;
}

for (const kind of ['audio-context', 'media-element'] as const) {
  test(`the played-audio tap hears a 440 Hz tone played through ${kind === 'audio-context' ? 'an AudioContext' : 'an <audio> element'}`, async ({ page }, testInfo) => {
    await installPlayedAudioTap(page);
    await openTonePage(page, kind);
    const clickedAt = Date.now();
    await page.click('#play');

    const recordings = await secondOfPlayedAudio(page, kind);
    expect(recordings.map((recording) => recording.kind)).toEqual([kind]);
    const [{ sampleRate, startEpochMs }] = recordings as [(typeof recordings)[number]];
    // On a machine starved by other work the played tone can break, and a break in the window
    // moves its peak for as long as it is there. Read again until it does not.
    let lastHalfSecond: Float32Array = new Float32Array(0);
    let frequency = 0;
    await expect
      .poll(async () => {
        const [latest] = (await readPlayedAudio(page, 0.5)).filter((recording) => recording.kind === kind);
        lastHalfSecond = latest!.samples.subarray(latest!.samples.length - sampleRate / 2);
        frequency = dominantFrequency(lastHalfSecond, sampleRate, 100, 2_000);
        return Math.abs(frequency - 440);
      }, { timeout: 10_000 })
      .toBeLessThanOrEqual(2);
    testInfo.annotations.push({ type: 'measured', description: `${frequency.toFixed(1)} Hz, rms ${rms(lastHalfSecond).toFixed(3)}, ${sampleRate} Hz` });
    expect(rms(lastHalfSecond)).toBeGreaterThan(0.3);
    // On the test's clock: the recording starts after the click, not long after.
    expect(startEpochMs).not.toBeNull();
    expect(startEpochMs!).toBeGreaterThan(clickedAt - 1_000);
    expect(startEpochMs!).toBeLessThan(Date.now());
  });
}
