/**
 * The voice changer judged on speech by a pitch estimator that is not the engine's own: pitchfinder's
 * YIN, on the input and on the output, frame by frame. For tests and bench/voice, and the same for
 * every processor compared, so that soundtouchjs is counted exactly as Voxline is.
 *
 * - Alignment: the output is matched to the input by their loudness envelopes (1 ms blocks, the lag
 *   with the highest correlation of the log-levels, 0 to 200 ms), not by what the engine says of its
 *   delay; that lag is also the delay measured on speech. PSOLA may move single periods by up to half
 *   a period either way: a 40 to 64 ms YIN window spans several, so that does not move a frame's f0.
 * - Voiced frames are chosen on the input alone, so a processor cannot leave out the frames it
 *   spoils: a frame counts when it is within 30 dB of the loudest frame, YIN is confident of it
 *   (aperiodic power under 10 %, fundamental 55 to 900 Hz, and the same reading at 15 %: where
 *   the looser threshold reads another octave, the input itself is ambiguous), and so are the
 *   frames a hop before and after it, which leaves out the onset and end of each voiced stretch, where a 10 ms difference in
 *   alignment changes what the window holds.
 * - Each voiced frame's output f0 ÷ input f0 is compared with the expected ratio: within 1 % is a
 *   hit; an output YIN is not sure of is a miss; more than a tritone off (nearer the octave than the
 *   right pitch) is an octave error.
 * - Loudness: RMS of the output against the input, in dB. Clicks: the largest step between two
 *   output samples against the largest of the input.
 */

import { YIN } from 'pitchfinder';
import { StreamingResampler } from '../../../src/dsp/resampler';

const ALIGN_BLOCK_SECONDS = 0.001;
const MAX_LAG_SECONDS = 0.2;
const VOICED_FLOOR_DB = 30;
/**
 * YIN's aperiodicity thresholds: strict on the input, where it picks the frames that count. The
 * output is read strictly first, then, where that finds nothing, more loosely (a lowered pitch
 * leaves gaps between grains): a looser threshold can only make YIN take a shorter lag than the
 * period (a formant's dip), which counts against the processor.
 */
const INPUT_THRESHOLD = 0.1;
const OUTPUT_THRESHOLD = 0.3;
const MIN_HZ = 55;
const MAX_HZ = 900;
const TOLERANCE = 0.01;
/**
 * YIN compares its aperiodicity with the threshold at whole lags: a period of 14.4 samples (a child
 * at 556 Hz raised an octave) is 0.4 of a sample from lag 14, enough to miss the threshold there
 * and take lag 29, twice the period, instead. Stretches whose expected period is shorter than this
 * are read at two or four times the rate, which puts a lag within an eighth of a sample of it.
 */
const FINE_LAG_PERIOD = 32;
/** More than the resampler's kernel holds back at the end of its input. */
const RESAMPLER_MARGIN = 32;
/** The window of the first pass over the input, which finds the voiced frames: 512 samples at 16 kHz. */
const FIRST_WINDOW_SECONDS = 0.032;
const MIN_WINDOW = 256;
const MAX_WINDOW = 2048;

export interface SpeechPitchOptions {
  sampleRate: number;
  /** Expected output f0 ÷ input f0. */
  ratio: number;
  /** The clean speech when `input` had noise added: the f0 truth and the voiced frames come from it. */
  reference?: Float32Array;
  hopSeconds?: number;
}

export interface SpeechPitchResult {
  /** Output delay found by the loudness envelopes, in samples. */
  lagSamples: number;
  voicedFrames: number;
  /** Share of voiced frames whose f0 ratio is within 1 % of the expected one. */
  withinTolerance: number;
  octaveErrors: number;
  /** Output RMS against input RMS. */
  loudnessDb: number;
  /** The largest output step ÷ the largest input step: above 1 something stepped that the input did not. */
  stepRatio: number;
}

export function compareSpeechPitch(input: Float32Array, output: Float32Array, options: SpeechPitchOptions): SpeechPitchResult {
  const { sampleRate, ratio } = options;
  const reference = options.reference ?? input;
  const hop = Math.round(sampleRate * (options.hopSeconds ?? 0.02));
  const lag = envelopeLag(input, output, sampleRate);
  const frames = voicedFrames(reference, sampleRate, hop);
  // One window for input and output alike, so both average the same stretch of a glide; it must
  // hold two of the output's longest periods.
  const window = Math.min(MAX_WINDOW, Math.max(MIN_WINDOW, powerOfTwoAtLeast((2 * sampleRate) / (frames.lowest * Math.min(1, ratio)))));
  const inputF0 = frames.f0AtWindow(window);
  const strict = YIN({ sampleRate, threshold: INPUT_THRESHOLD, probabilityThreshold: 0 });
  const lenient = YIN({ sampleRate, threshold: OUTPUT_THRESHOLD, probabilityThreshold: 0 });
  const detectOutput = (samples: Float32Array) => strict(samples) ?? lenient(samples);
  const deviations = frames.centres.map((centre, index) => {
    const expected = inputF0[index]! * ratio;
    const measured = f0Around(detectOutput, output, centre + lag, window, sampleRate / expected);
    return measured === null || measured < MIN_HZ * Math.min(1, ratio) || measured > MAX_HZ * Math.max(1, ratio) ? Number.NaN : measured / expected;
  });
  const hits = deviations.filter((deviation) => Math.abs(deviation - 1) <= TOLERANCE).length;
  const aligned = output.subarray(lag, lag + input.length);
  return {
    lagSamples: lag,
    voicedFrames: deviations.length,
    withinTolerance: deviations.length === 0 ? 0 : hits / deviations.length,
    octaveErrors: deviations.filter((deviation) => Math.abs(Math.log2(deviation)) >= 0.5).length,
    loudnessDb: 20 * Math.log10(rmsOf(aligned, 0, aligned.length) / rmsOf(input, 0, input.length)),
    stepRatio: largestStep(output) / largestStep(input),
  };
}

interface VoicedFrames {
  /** Centres of the voiced frames, in samples. */
  centres: number[];
  lowest: number;
  /** The input f0 of each voiced frame measured over `window` samples. */
  f0AtWindow(window: number): number[];
}

/** The voiced frames of each clean input, found once however many outputs are compared with it. */
const voicedFramesOf = new WeakMap<Float32Array, Map<string, VoicedFrames>>();

function voicedFrames(reference: Float32Array, sampleRate: number, hop: number): VoicedFrames {
  const key = `${sampleRate}/${hop}`;
  const known = voicedFramesOf.get(reference)?.get(key);
  if (known) return known;
  const detect = YIN({ sampleRate, threshold: INPUT_THRESHOLD, probabilityThreshold: 0 });
  const looser = YIN({ sampleRate, threshold: OUTPUT_THRESHOLD / 2, probabilityThreshold: 0 });
  const inRange = (value: number | null) => (value !== null && value >= MIN_HZ && value <= MAX_HZ ? value : null);
  // Where a slightly looser threshold reads another octave, the input itself is ambiguous.
  const sure = (samples: Float32Array) => {
    const value = detect(samples);
    const other = value === null ? null : looser(samples);
    return value !== null && other !== null && Math.abs(other / value - 1) < 0.02 ? value : null;
  };
  const firstWindow = powerOfTwoAtLeast(sampleRate * FIRST_WINDOW_SECONDS);
  const all: number[] = [];
  for (let centre = 2 * firstWindow; centre + 2 * firstWindow < reference.length; centre += hop) all.push(centre);
  const levels = all.map((centre) => rmsOf(reference, centre - firstWindow / 2, centre + firstWindow / 2));
  const floor = Math.max(...levels, 1e-9) * 10 ** (-VOICED_FLOOR_DB / 20);
  const first = all.map((centre, index) => (levels[index]! < floor ? null : inRange(f0Around(sure, reference, centre, firstWindow, 0))));
  const chosen = all.flatMap((_, index) => (index > 0 && index + 1 < all.length && first[index - 1] != null && first[index] != null && first[index + 1] != null ? [index] : []));
  const centres = chosen.map((index) => all[index]!);
  const firstF0 = chosen.map((index) => first[index]!);
  const byWindow = new Map<number, number[]>();
  const frames: VoicedFrames = {
    centres,
    lowest: Math.min(...firstF0, MAX_HZ),
    f0AtWindow(window) {
      let f0 = byWindow.get(window);
      if (!f0) {
        f0 = centres.map((centre, index) => inRange(f0Around(detect, reference, centre, window, sampleRate / firstF0[index]!)) ?? firstF0[index]!);
        byWindow.set(window, f0);
      }
      return f0;
    },
  };
  if (!voicedFramesOf.has(reference)) voicedFramesOf.set(reference, new Map());
  voicedFramesOf.get(reference)!.set(key, frames);
  return frames;
}

/**
 * YIN over `window` samples around `centre`. YIN compares a window with the same window a period
 * later, so what it measures is centred half a window and half a period after where it starts.
 */
function f0Around(detect: (samples: Float32Array) => number | null, samples: Float32Array, centre: number, window: number, periodGuess: number): number | null {
  const start = Math.round(centre - window / 2 - periodGuess / 2);
  if (start < 0 || start + 2 * window + 1 > samples.length) return null;
  // pitchfinder's YIN takes the power of two at or above the length given, halves it for its buffer
  // and halves that again for its window: 2 × window + 1 samples give it `window`.
  const stretch = atUnitPower(samples.subarray(start, start + 2 * window + 1));
  const factor = periodGuess > 0 && periodGuess < FINE_LAG_PERIOD ? (periodGuess < FINE_LAG_PERIOD / 2 ? 4 : 2) : 1;
  if (factor === 1) return detect(stretch);
  // YIN thinks the stretch is at the original rate: its reading is `factor` times too low.
  const f0 = detect(upsampled(stretch, factor));
  return f0 === null ? null : f0 * factor;
}

/**
 * `samples` at `factor` times the rate, by the call audio's own windowed-sinc resampler. It answers
 * one input sample late and keeps its last few back for its kernel: the input is padded with
 * silence and its output read from one input sample in, so that the two line up.
 */
function upsampled(samples: Float32Array, factor: number): Float32Array {
  const resampler = new StreamingResampler(1, factor);
  const input = new Float32Array(samples.length + RESAMPLER_MARGIN);
  input.set(samples);
  const output = new Float32Array(resampler.maxOutput(input.length));
  const written = resampler.process(input, output);
  if (written < (samples.length + 1) * factor) throw new Error(`the resampler gave ${written} samples for ${samples.length} at ${factor} times the rate`);
  return output.subarray(factor, (samples.length + 1) * factor);
}

/**
 * The stretch scaled to a mean power of 1. YIN's measure does not depend on the level, but
 * pitchfinder's sets the difference at lag 1 to 1 before it sums the differences, instead of
 * dividing it by itself: on a quiet stretch (summed differences well under 1) the lags of 2 and 3
 * samples then look periodic, and a quiet voice read as a 5–8 kHz tone, out of range. Scaled, the
 * differences are in the hundreds and that 1 weighs nothing.
 */
function atUnitPower(samples: Float32Array): Float32Array {
  let power = 0;
  for (let i = 0; i < samples.length; i += 1) power += samples[i]! * samples[i]!;
  if (power === 0) return samples;
  const gain = Math.sqrt(samples.length / power);
  return Float32Array.from(samples, (value) => value * gain);
}

/** `speech` with `noise` (repeated as needed) added at `snrDb` below the speech's average power. */
export function mixAtSnr(speech: Float32Array, noise: Float32Array, snrDb: number): Float32Array {
  let speechPower = 0;
  let noisePower = 0;
  for (let i = 0; i < speech.length; i += 1) {
    const n = noise[i % noise.length]!;
    speechPower += speech[i]! * speech[i]!;
    noisePower += n * n;
  }
  const gain = Math.sqrt(speechPower / noisePower / 10 ** (snrDb / 10));
  return Float32Array.from(speech, (value, i) => value + gain * noise[i % noise.length]!);
}

function powerOfTwoAtLeast(value: number): number {
  let size = 1;
  while (size < value) size *= 2;
  return size;
}

function rmsOf(samples: Float32Array, from: number, to: number): number {
  let sum = 0;
  const start = Math.max(0, Math.floor(from));
  const end = Math.min(samples.length, Math.floor(to));
  for (let i = start; i < end; i += 1) sum += samples[i]! * samples[i]!;
  return end > start ? Math.sqrt(sum / (end - start)) : 0;
}

function largestStep(samples: Float32Array): number {
  let largest = 0;
  for (let i = 1; i < samples.length; i += 1) largest = Math.max(largest, Math.abs(samples[i]! - samples[i - 1]!));
  return largest;
}

function envelopeLag(input: Float32Array, output: Float32Array, sampleRate: number): number {
  const block = Math.round(sampleRate * ALIGN_BLOCK_SECONDS);
  const envelope = (samples: Float32Array) =>
    Float64Array.from({ length: Math.floor(samples.length / block) }, (_, b) => Math.log(rmsOf(samples, b * block, (b + 1) * block) + 1e-4));
  const a = envelope(input);
  const b = envelope(output);
  const maxLag = Math.round(MAX_LAG_SECONDS / ALIGN_BLOCK_SECONDS);
  let bestLag = 0;
  let best = Number.NEGATIVE_INFINITY;
  for (let lag = 0; lag <= maxLag; lag += 1) {
    const count = Math.min(a.length, b.length - lag);
    if (count <= 0) break;
    let sumA = 0;
    let sumB = 0;
    for (let i = 0; i < count; i += 1) {
      sumA += a[i]!;
      sumB += b[i + lag]!;
    }
    const meanA = sumA / count;
    const meanB = sumB / count;
    let cross = 0;
    let powerA = 0;
    let powerB = 0;
    for (let i = 0; i < count; i += 1) {
      const da = a[i]! - meanA;
      const db = b[i + lag]! - meanB;
      cross += da * db;
      powerA += da * da;
      powerB += db * db;
    }
    const correlation = cross / Math.sqrt(powerA * powerB + 1e-30);
    if (correlation > best) {
      best = correlation;
      bestLag = lag;
    }
  }
  return bestLag * block;
}
