import { readdirSync } from 'node:fs';
import { compareSpeechPitch, mixAtSnr } from '../../tests/support/dsp/speech-quality';
import { toFloat } from '../../tests/support/dsp/voice-engine-harness';
import { readWav } from '../../tests/support/dsp/wav-file';
import type { FrameProcessor } from './subjects';

/**
 * The speech half of bench/voice (issue 21): every clip of tests/fixtures/speech through each
 * processor, judged by tests/support/dsp/speech-quality.ts, the same counting for all.
 */

const FIXTURES = new URL('../../tests/fixtures/speech/', import.meta.url);
const NOISE_SNR_DB = 10;

export interface SpeechClip {
  name: string;
  samples: Int16Array;
}

export type SpeechCase = {
  name: string;
  /** Expected output f0 ÷ input f0. */
  ratio: number;
  /** Noise added at 10 dB below the speech, or none. */
  noise?: string;
} & (
  | {
      /** A new processor for each clip, whose output is judged. */
      create(): FrameProcessor;
    }
  | {
      /**
       * The voice's part of what a processor makes of the noisy clip (tests/support/dsp/
       * voice-engine-harness.ts), judged against the clean clip: where the noise led it astray.
       */
      voicePartOf(clean: Int16Array, noisy: Int16Array): Int16Array;
    }
);

export interface SpeechRow {
  name: string;
  voicedFrames: number;
  /** Pooled over every clip, and the worst clip's share. */
  withinTolerance: number;
  worstClip: { name: string; share: number };
  octaveErrors: number;
  worstLoudnessDb: number;
  worstStepRatio: number;
  medianLagMs: number;
}

/** The speech clips (not the noise), each padded with 0.2 s of silence so no delay cuts its end. */
export function speechClips(sampleRate: number): SpeechClip[] {
  return readdirSync(FIXTURES)
    .filter((file) => file.endsWith('.wav') && !file.endsWith('-noise.wav'))
    .sort()
    .map((file) => ({ name: file.replace(/\.wav$/, ''), samples: padded(readFixture(file, sampleRate), sampleRate / 5) }));
}

function noiseClip(name: string, sampleRate: number): Float32Array {
  return Float32Array.from(readFixture(`${name}-noise.wav`, sampleRate), (value) => value / 32768);
}

/** The clips end to end, repeated to `seconds`: the input for timing. */
export function speechStream(clips: SpeechClip[], sampleRate: number, seconds: number): Int16Array {
  const out = new Int16Array(Math.round(sampleRate * seconds));
  for (let at = 0, index = 0; at < out.length; index += 1) {
    const clip = clips[index % clips.length]!.samples;
    out.set(clip.subarray(0, Math.min(clip.length, out.length - at)), at);
    at += clip.length;
  }
  return out;
}

export function measureSpeech(cases: SpeechCase[], clips: SpeechClip[], frameSize: number, sampleRate: number): SpeechRow[] {
  const clean = new Map(clips.map((clip) => [clip.name, Float32Array.from(clip.samples, (value) => value / 32768)]));
  const noises = new Map<string, Float32Array>();
  return cases.map((speechCase) => {
    let voiced = 0;
    let hits = 0;
    let octaveErrors = 0;
    let worstLoudness = 0;
    let worstStep = 0;
    let worstClip = { name: '', share: 2 };
    const lags: number[] = [];
    for (const clip of clips) {
      const reference = clean.get(clip.name)!;
      let input: Float32Array = reference;
      if (speechCase.noise) {
        if (!noises.has(speechCase.noise)) noises.set(speechCase.noise, noiseClip(speechCase.noise, sampleRate));
        input = mixAtSnr(reference, noises.get(speechCase.noise)!, NOISE_SNR_DB);
      }
      const options = { sampleRate, ratio: speechCase.ratio, reference, hopSeconds: 0.01 };
      const result =
        'create' in speechCase
          ? compareSpeechPitch(input, run(speechCase.create(), toInt16(input), frameSize), options)
          : compareSpeechPitch(reference, toFloat(speechCase.voicePartOf(clip.samples, toInt16(input))), options);
      voiced += result.voicedFrames;
      hits += Math.round(result.withinTolerance * result.voicedFrames);
      octaveErrors += result.octaveErrors;
      if (Math.abs(result.loudnessDb) > Math.abs(worstLoudness)) worstLoudness = result.loudnessDb;
      worstStep = Math.max(worstStep, result.stepRatio);
      if (result.voicedFrames > 0 && result.withinTolerance < worstClip.share) worstClip = { name: clip.name, share: result.withinTolerance };
      lags.push((result.lagSamples / sampleRate) * 1000);
    }
    lags.sort((a, b) => a - b);
    return {
      name: speechCase.name,
      voicedFrames: voiced,
      withinTolerance: hits / Math.max(1, voiced),
      worstClip,
      octaveErrors,
      worstLoudnessDb: worstLoudness,
      worstStepRatio: worstStep,
      medianLagMs: lags[Math.floor((lags.length - 1) / 2)]!,
    };
  });
}

export function speechTable(rows: SpeechRow[]): string {
  const header = ['', 'voiced frames', 'f0 within 1 % (worst clip)', 'octave jumps', 'loudness, worst (dB)', 'largest step ÷ input’s, worst', 'delay on speech (ms, median)'];
  const lines = rows.map((row) => [
    row.name,
    String(row.voicedFrames),
    `${(row.withinTolerance * 100).toFixed(1)} % (${(row.worstClip.share * 100).toFixed(0)} % ${row.worstClip.name})`,
    String(row.octaveErrors),
    row.worstLoudnessDb.toFixed(2),
    row.worstStepRatio.toFixed(2),
    row.medianLagMs.toFixed(0),
  ]);
  const all = [header, ...lines];
  const widths = header.map((_, column) => Math.max(...all.map((line) => line[column]!.length)));
  const format = (line: string[]) => `| ${line.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}

function readFixture(file: string, sampleRate: number): Int16Array {
  const { samples, sampleRate: rate } = readWav(new URL(file, FIXTURES).pathname);
  if (rate !== sampleRate) throw new Error(`tests/fixtures/speech/${file} is at ${rate} Hz; the bench runs at ${sampleRate} Hz`);
  return samples;
}

function padded(samples: Int16Array, silence: number): Int16Array {
  const out = new Int16Array(samples.length + silence);
  out.set(samples);
  return out;
}

function toInt16(samples: Float32Array): Int16Array {
  return Int16Array.from(samples, (value) => Math.max(-32768, Math.min(32767, Math.round(value * 32768))));
}

function run(processor: FrameProcessor, input: Int16Array, frameSize: number): Float32Array {
  const output = new Int16Array(input.length - (input.length % frameSize));
  for (let start = 0; start < output.length; start += frameSize) processor.process(input.subarray(start, start + frameSize), output.subarray(start, start + frameSize));
  return Float32Array.from(output, (value) => value / 32768);
}
