/** The voice engine run as the media bridge runs it, and its output measured: for its tests. */

import type { CallSampleRate } from '../../../src/common/calls';
import type { VoiceSettings } from '../../../src/common/voice';
import { SampleHistory } from '../../../src/dsp/voice/sample-history';
import { VoiceEngine } from '../../../src/dsp/voice/voice-engine';
import { fundamentalFrequency } from './analysis';

/**
 * The voice's part of what the engine makes of `noisy`, the voice with noise added: the engine
 * finds its pitch marks on `noisy` and cuts its grains from `clean`, the same voice without the
 * noise. PSOLA's output is the sum of its grains, so given the marks it is the sum of what it
 * makes of the voice and of the noise: this is the first, which a pitch estimator can read however
 * much the noise confuses it (decision 026, "The voice's part of the output").
 */
export function voicePartOfOutput(sampleRate: CallSampleRate, settings: VoiceSettings, clean: Int16Array, noisy: Int16Array): Int16Array {
  if (clean.length !== noisy.length) throw new Error(`the clean voice has ${clean.length} samples and the noisy one ${noisy.length}`);
  const marks = new SampleHistory(sampleRate);
  const engine = new VoiceEngine(sampleRate, settings, marks);
  const size = engine.frameSize;
  const output = new Int16Array(clean.length);
  for (let start = 0; start + size <= clean.length; start += size) {
    marks.writeInt16(noisy, start, start + size);
    engine.process(clean.subarray(start, start + size), output.subarray(start, start + size));
  }
  return output;
}

/** Runs every whole frame of `input` through `engine`, as the media bridge does. */
export function processFrames(engine: VoiceEngine, input: Int16Array): Int16Array {
  const size = engine.frameSize;
  const output = new Int16Array(input.length);
  for (let start = 0; start + size <= input.length; start += size) engine.process(input.subarray(start, start + size), output.subarray(start, start + size));
  return output;
}

export function toFloat(samples: Int16Array): Float32Array {
  return Float32Array.from(samples, (value) => value / 32768);
}

export function pitchOf(samples: Float32Array, sampleRate: number): number {
  return fundamentalFrequency(samples, sampleRate, 40, 900);
}

/** Start and end (exclusive) of each stretch whose 5 ms level exceeds `threshold`, in samples. */
export function soundingStretches(samples: Int16Array, sampleRate: number, threshold = 1000): [number, number][] {
  const block = Math.round(sampleRate * 0.005);
  const stretches: [number, number][] = [];
  let start = -1;
  for (let at = 0; at + block <= samples.length; at += block) {
    let peak = 0;
    for (let i = at; i < at + block; i += 1) peak = Math.max(peak, Math.abs(samples[i]!));
    if (peak > threshold && start < 0) start = at;
    if (peak <= threshold && start >= 0) {
      stretches.push([start, at]);
      start = -1;
    }
  }
  if (start >= 0) stretches.push([start, samples.length]);
  return stretches;
}
