import { frameSamples, type CallSampleRate } from '../../../src/common/calls';
import { float32ToInt16, int16ToFloat32 } from '../../../src/dsp/pcm';
import { sine } from './analysis';

/** `count` consecutive 20 ms frames of a half-scale sine at `frequency`, as a leg hands them out. */
export function toneFrames(frequency: number, sampleRate: CallSampleRate, count: number): Int16Array[] {
  const samples = frameSamples(sampleRate);
  const tone = float32ToInt16(sine(frequency, sampleRate, samples * count));
  return Array.from({ length: count }, (_, i) => tone.slice(i * samples, (i + 1) * samples));
}

/** Frames end to end, as Float32 samples for the measurements of ./analysis. */
export function joinFrames(frames: Int16Array[]): Float32Array {
  const out = new Float32Array(frames.reduce((n, frame) => n + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    int16ToFloat32(frame, out.subarray(offset, offset + frame.length));
    offset += frame.length;
  }
  return out;
}
