/** The part of soundtouchjs 0.3.0 (which ships no types) that bench/voice drives. */
declare module 'soundtouchjs' {
  export class FifoSampleBuffer {
    readonly frameCount: number;
    /** Interleaved stereo: `numFrames` pairs of samples from `samples[position * 2]`. */
    putSamples(samples: Float32Array, position?: number, numFrames?: number): void;
    receiveSamples(output: Float32Array, numFrames?: number): void;
  }

  export class Stretch {
    setParameters(sampleRate: number, sequenceMs: number, seekWindowMs: number, overlapMs: number): void;
  }

  export class SoundTouch {
    readonly stretch: Stretch;
    readonly inputBuffer: FifoSampleBuffer;
    readonly outputBuffer: FifoSampleBuffer;
    pitch: number;
    tempo: number;
    process(): void;
  }
}
