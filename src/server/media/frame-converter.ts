import { frameSamples, type CallSampleRate } from '../../common/calls';
import { StreamingResampler } from '../../dsp/resampler';

/** Converts a stream of 20 ms frames from one rate to another, emitting whole 20 ms frames. */
export class FrameConverter {
  private readonly resampler: StreamingResampler;
  private readonly input: Float32Array;
  private readonly output: Float32Array;
  private pending: Float32Array;
  private pendingLength = 0;
  private readonly outFrame: Int16Array;

  constructor(from: CallSampleRate, to: CallSampleRate) {
    // 8 taps a side is plenty between 8 and 16 kHz and keeps the server's cost per call small.
    this.resampler = new StreamingResampler(from, to, 8);
    this.input = new Float32Array(frameSamples(from));
    this.outFrame = new Int16Array(frameSamples(to));
    this.output = new Float32Array(this.resampler.maxOutput(this.input.length) + 8);
    this.pending = new Float32Array(this.outFrame.length * 4);
  }

  convert(frame: Int16Array, emit: (frame: Int16Array) => void) {
    for (let i = 0; i < frame.length; i += 1) this.input[i] = frame[i]! / 32768;
    const produced = this.resampler.process(this.input.subarray(0, frame.length), this.output);
    this.pending.set(this.output.subarray(0, produced), this.pendingLength);
    this.pendingLength += produced;
    const out = this.outFrame;
    while (this.pendingLength >= out.length) {
      for (let i = 0; i < out.length; i += 1) out[i] = Math.max(-32768, Math.min(32767, Math.round(this.pending[i]! * 32768)));
      this.pending.copyWithin(0, out.length, this.pendingLength);
      this.pendingLength -= out.length;
      // Lent to emit, as legs lend their frames (leg.ts): the next frame reuses it.
      emit(out);
    }
  }
}
