import { expect, type Page } from '@playwright/test';
import { dominantFrequency, rms } from '../../support/dsp/analysis';
import { percentile } from '../../../bench/network/audio-analysis';
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
 * A twentieth of a second: long enough to place a tone within 1 % (11 periods of 220 Hz), short
 * enough that most pieces hold no break even at 30 breaks a second. A 440 Hz tone with 20 random
 * breaks a second read worst over ten trials: 4.4 Hz off read whole, 5.8 by 100 ms pieces, 0.6 by 50 ms.
 */
const PIECE_SECONDS = 0.05;

/**
 * The tone `samples` carry, as the median of the dominant frequencies of its loud 50 ms pieces;
 * null when fewer than half of them are loud. Read as one, a whole second's peak moves off the
 * tone wherever the audio breaks: on a starved machine (two browsers and a server on two cores)
 * the page decodes late, and each frame its jitter buffer conceals or drops restarts the tone at
 * another phase. Pieces without a break, most of them, still read true.
 */
export function toneOf({ samples, sampleRate }: Heard): number | null {
  const pieceLength = Math.round(PIECE_SECONDS * sampleRate);
  const pieces = Math.floor(samples.length / pieceLength);
  const frequencies: number[] = [];
  for (let piece = 0; piece < pieces; piece += 1) {
    const part = samples.subarray(piece * pieceLength, (piece + 1) * pieceLength);
    if (rms(part) > 0.01) frequencies.push(dominantFrequency(part, sampleRate, 50, 2_000));
  }
  if (pieces === 0 || frequencies.length < pieces / 2) return null;
  return percentile(frequencies, 0.5);
}

/**
 * The listener hears `frequency`: loud within 15 s, then a second of it whose tone (toneOf) is
 * within 2 %. Read again until it holds, for the audio of a call that is still starting.
 */
export async function expectToHear(heard: Listener, frequency: number) {
  await expect.poll(async () => rms((await heard.last(1)).samples), { timeout: 15_000 }).toBeGreaterThan(0.01);
  await expect.poll(async () => Math.abs((toneOf(await heard.last(1)) ?? 0) - frequency), { timeout: 10_000 }).toBeLessThan(frequency * 0.02);
}
