import { expect, type Page } from '@playwright/test';
import { dominantFrequency, rms } from '../../support/dsp/analysis';
import { installPlayedAudioTap, readPlayedAudio } from '../../../bench/network/played-audio';

/** Audio a page played, mono, at its AudioContext's rate. */
export interface Heard {
  samples: Float32Array;
  sampleRate: number;
}

/**
 * What the person at `page` hears: everything the page sends to its speakers, whichever way the
 * call's audio came (WebRTC or the media websocket), recorded by the played-audio tap. Install it
 * before the page loads the app.
 */
export async function listenTo(page: Page) {
  await installPlayedAudioTap(page);
  /** The context playing most recently: the call's, once it plays (the ringtone's stops before). */
  const newest = async (lastSeconds?: number) => {
    const recordings = (await readPlayedAudio(page, lastSeconds)).filter((recording) => recording.kind === 'audio-context' && recording.startEpochMs !== null);
    const end = (recording: (typeof recordings)[number]) => recording.startEpochMs! + (recording.totalSamples / recording.sampleRate) * 1000;
    return recordings.sort((a, b) => end(b) - end(a))[0] ?? null;
  };
  return {
    /** Seconds the newest context has played. */
    async seconds(): Promise<number> {
      const recording = await newest(0);
      return recording ? recording.totalSamples / recording.sampleRate : 0;
    },
    /** The last `seconds` the newest context played. */
    async last(seconds: number): Promise<Heard> {
      const recording = await newest(seconds);
      if (!recording) return { samples: new Float32Array(0), sampleRate: 48_000 };
      const wanted = Math.round(seconds * recording.sampleRate);
      return { samples: recording.samples.subarray(Math.max(0, recording.samples.length - wanted)), sampleRate: recording.sampleRate };
    },
  };
}

type Listener = Awaited<ReturnType<typeof listenTo>>;

/**
 * The listener hears `frequency`: loud within 15 s, then a second of it within 2 % of the tone.
 * Read again until it holds, because the tap misses blocks while the page's thread is starved
 * (two browsers and a server on two cores), which squeezes the tone it recorded.
 */
export async function expectToHear(heard: Listener, frequency: number) {
  await expect.poll(async () => rms((await heard.last(1)).samples), { timeout: 15_000 }).toBeGreaterThan(0.01);
  await expect
    .poll(async () => {
      const { samples, sampleRate } = await heard.last(1);
      return Math.abs(dominantFrequency(samples, sampleRate) - frequency);
    }, { timeout: 10_000 })
    .toBeLessThan(frequency * 0.02);
}
