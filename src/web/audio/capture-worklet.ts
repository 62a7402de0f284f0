import { float32ToInt16 } from '../../dsp/pcm';
import { StreamingResampler } from '../../dsp/resampler';

interface CaptureOptions {
  wireRate: number;
  frameSamples: number;
}

/**
 * Microphone → wire: resamples the context's rate to the call's rate (16 or 8 kHz), cuts 20 ms
 * frames and posts each as a transferable Int16 buffer. While muted it posts silence, so the far
 * end hears quiet rather than a gap.
 */
class CaptureProcessor extends AudioWorkletProcessor {
  private readonly resampler: StreamingResampler;
  private readonly frame: Float32Array;
  private readonly scratch: Float32Array;
  private filled = 0;
  private muted = false;

  constructor(options: AudioWorkletNodeOptions) {
    super(options);
    const { wireRate, frameSamples } = options.processorOptions as CaptureOptions;
    this.resampler = new StreamingResampler(sampleRate, wireRate);
    this.frame = new Float32Array(frameSamples);
    this.scratch = new Float32Array(this.resampler.maxOutput(128) + 16);
    this.port.onmessage = (event: MessageEvent<{ muted?: boolean }>) => {
      if (typeof event.data.muted === 'boolean') this.muted = event.data.muted;
    };
  }

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    const produced = this.resampler.process(channel, this.scratch);
    for (let i = 0; i < produced; i += 1) {
      this.frame[this.filled] = this.muted ? 0 : this.scratch[i]!;
      this.filled += 1;
      if (this.filled === this.frame.length) {
        const pcm = float32ToInt16(this.frame);
        this.port.postMessage(pcm.buffer, [pcm.buffer]);
        this.filled = 0;
      }
    }
    return true;
  }
}

registerProcessor('voxline-capture', CaptureProcessor);
