import { JitterBuffer } from '../../dsp/jitter-buffer';
import { int16ToFloat32 } from '../../dsp/pcm';
import { StreamingResampler } from '../../dsp/resampler';

interface PlaybackOptions {
  wireRate: number;
  frameSamples: number;
}

/**
 * Wire → speaker: received 20 ms frames go through the jitter buffer at the call's rate, then are
 * resampled to the context's rate. Every 50 frames it reports the buffer's state and the level.
 */
class PlaybackProcessor extends AudioWorkletProcessor {
  private readonly jitter: JitterBuffer;
  private readonly resampler: StreamingResampler;
  private readonly frame: Float32Array;
  private readonly resampled: Float32Array;
  private fifo: Float32Array;
  private fifoLength = 0;
  private framesSinceReport = 0;
  private levelSum = 0;
  private levelCount = 0;

  constructor(options: AudioWorkletNodeOptions) {
    super(options);
    const { wireRate, frameSamples } = options.processorOptions as PlaybackOptions;
    this.jitter = new JitterBuffer({ frameSamples });
    this.resampler = new StreamingResampler(wireRate, sampleRate);
    this.frame = new Float32Array(frameSamples);
    this.resampled = new Float32Array(this.resampler.maxOutput(frameSamples) + 16);
    this.fifo = new Float32Array(4096);
    this.port.onmessage = (event: MessageEvent<ArrayBuffer>) => {
      if (event.data instanceof ArrayBuffer) this.jitter.push(int16ToFloat32(new Int16Array(event.data)));
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0]?.[0];
    if (!output) return true;
    while (this.fifoLength < output.length) this.refill();
    output.set(this.fifo.subarray(0, output.length));
    this.fifo.copyWithin(0, output.length, this.fifoLength);
    this.fifoLength -= output.length;
    for (let channel = 1; channel < outputs[0]!.length; channel += 1) outputs[0]![channel]!.set(output);
    return true;
  }

  private refill() {
    this.jitter.pull(this.frame);
    for (let i = 0; i < this.frame.length; i += 1) this.levelSum += this.frame[i]! * this.frame[i]!;
    this.levelCount += this.frame.length;
    const produced = this.resampler.process(this.frame, this.resampled);
    if (this.fifoLength + produced > this.fifo.length) {
      const grown = new Float32Array(this.fifo.length * 2);
      grown.set(this.fifo.subarray(0, this.fifoLength));
      this.fifo = grown;
    }
    this.fifo.set(this.resampled.subarray(0, produced), this.fifoLength);
    this.fifoLength += produced;
    this.framesSinceReport += 1;
    if (this.framesSinceReport >= 50) {
      this.port.postMessage({ stats: this.jitter.getStats(), level: Math.sqrt(this.levelSum / Math.max(1, this.levelCount)) });
      this.framesSinceReport = 0;
      this.levelSum = 0;
      this.levelCount = 0;
    }
  }
}

registerProcessor('voxline-playback', PlaybackProcessor);
