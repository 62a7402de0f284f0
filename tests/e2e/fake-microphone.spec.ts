import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { writeSineWav } from './support/wav';

/**
 * Proves the harness, not the app: a Chromium launched with a 440 Hz WAV as its microphone hands
 * that tone to getUserMedia. page.evaluate is fine here; app tests must drive the UI with clicks.
 */

interface Spectrum {
  /** Loudest frequency, refined between FFT bins. */
  peakHz: number;
  /** Level of that peak in dBFS. */
  peakDb: number;
  /** Seconds of audio averaged. */
  seconds: number;
  sampleRate: number;
}

declare global {
  interface Window {
    __micProbe?: { context: AudioContext; analyser: AnalyserNode; stream: MediaStream };
  }
}

/** Captures the microphone into an AnalyserNode kept on window.__micProbe. */
async function openMicrophoneProbe(page: Page) {
  await page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const context = new AudioContext();
    await context.resume();
    const analyser = context.createAnalyser();
    analyser.fftSize = 8192;
    analyser.smoothingTimeConstant = 0;
    context.createMediaStreamSource(stream).connect(analyser);
    window.__micProbe = { context, analyser, stream };
  });
}

/** The loudest level the analyser sees right now, in dBFS. */
async function microphoneLevel(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { analyser } = window.__micProbe!;
    const bins = new Float32Array(analyser.frequencyBinCount);
    analyser.getFloatFrequencyData(bins);
    return Math.max(...bins);
  });
}

/** Averages the spectrum over `seconds` and returns its dominant frequency. */
async function dominantFrequency(page: Page, seconds: number): Promise<Spectrum> {
  return page.evaluate(async (seconds) => {
    const { analyser, context } = window.__micProbe!;
    const bins = new Float32Array(analyser.frequencyBinCount);
    const power = new Float64Array(analyser.frequencyBinCount);
    const frameSeconds = analyser.fftSize / context.sampleRate;
    const frames = Math.max(1, Math.round(seconds / frameSeconds));
    for (let frame = 0; frame < frames; frame++) {
      // One analysis window apart, so successive frames look at fresh audio.
      await new Promise((resolve) => setTimeout(resolve, frameSeconds * 1000));
      analyser.getFloatFrequencyData(bins);
      for (let i = 0; i < bins.length; i++) power[i] = (power[i] ?? 0) + 10 ** ((bins[i] ?? -Infinity) / 10);
    }
    let peak = 1; // skip DC
    for (let i = 2; i < power.length - 1; i++) if ((power[i] ?? 0) > (power[peak] ?? 0)) peak = i;
    const db = (i: number) => 10 * Math.log10((power[i] ?? 0) / frames);
    // Parabolic interpolation on the log spectrum around the peak bin.
    const [left, centre, right] = [db(peak - 1), db(peak), db(peak + 1)];
    const denominator = left - 2 * centre + right;
    const offset = Number.isFinite(denominator) && denominator !== 0 ? (0.5 * (left - right)) / denominator : 0;
    const binHz = context.sampleRate / analyser.fftSize;
    return { peakHz: (peak + offset) * binHz, peakDb: centre, seconds: frames * frameSeconds, sampleRate: context.sampleRate };
  }, seconds);
}

test('the fake microphone delivers the WAV file to getUserMedia (440 Hz)', async ({ launchWithMicrophone }, testInfo) => {
  const wav = writeSineWav({ frequency: 440, seconds: 20, dir: testInfo.outputPath() });
  const { page } = await launchWithMicrophone(wav);
  await page.goto('/');

  await openMicrophoneProbe(page);
  // Wait for the tone to arrive (the fake device starts with the capture), then measure ~1 s of it.
  await expect
    .poll(() => microphoneLevel(page), { message: 'the fake microphone should carry a tone (peak level, dBFS)', timeout: 10_000 })
    .toBeGreaterThan(-40);
  const spectrum = await dominantFrequency(page, 1);
  testInfo.annotations.push({ type: 'measured', description: `${spectrum.peakHz.toFixed(2)} Hz at ${spectrum.peakDb.toFixed(1)} dBFS, ${spectrum.sampleRate} Hz context` });

  expect(spectrum.peakDb, 'the tone should still be playing while it is measured').toBeGreaterThan(-40);
  expect(Math.abs(spectrum.peakHz - 440) / 440, `dominant frequency ${spectrum.peakHz.toFixed(2)} Hz should be within 2 % of 440 Hz`).toBeLessThanOrEqual(0.02);
});
