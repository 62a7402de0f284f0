/**
 * Playback jitter buffer for 20 ms call frames: waits for about 60 ms of audio before playing,
 * grows its target after an underrun and shrinks it again when audio keeps piling up, and hides a
 * missing frame by fading out the last one instead of clicking to silence.
 */

export interface JitterBufferOptions {
  frameSamples: number;
  targetFrames?: number;
  minFrames?: number;
  maxFrames?: number;
  /** Frames of steady excess before one frame is dropped to catch up. */
  catchUpAfter?: number;
}

export type PullResult = 'audio' | 'concealed' | 'silence';

export interface JitterStats {
  targetFrames: number;
  queuedFrames: number;
  played: number;
  concealed: number;
  dropped: number;
}

const CONCEAL_GAINS = [0.6, 0.3, 0.1];

export class JitterBuffer {
  private readonly frameSamples: number;
  private readonly minFrames: number;
  private readonly maxFrames: number;
  private readonly catchUpAfter: number;
  private readonly queue: Float32Array[] = [];
  private readonly lastFrame: Float32Array;
  private target: number;
  private buffering = true;
  private missing = 0;
  private excessRun = 0;
  private readonly stats = { played: 0, concealed: 0, dropped: 0 };

  constructor({ frameSamples, targetFrames = 3, minFrames = 2, maxFrames = 10, catchUpAfter = 100 }: JitterBufferOptions) {
    this.frameSamples = frameSamples;
    this.target = targetFrames;
    this.minFrames = minFrames;
    this.maxFrames = maxFrames;
    this.catchUpAfter = catchUpAfter;
    this.lastFrame = new Float32Array(frameSamples);
  }

  push(frame: Float32Array) {
    if (frame.length !== this.frameSamples) return;
    this.queue.push(frame);
    // A burst far beyond the ceiling (a stalled network catching up) is cut to the target at once.
    while (this.queue.length > this.maxFrames * 2) {
      this.queue.shift();
      this.stats.dropped += 1;
    }
  }

  /** Fills `out` (one frame) with the next audio to play. */
  pull(out: Float32Array): PullResult {
    if (this.buffering) {
      if (this.queue.length < this.target) {
        out.fill(0);
        return 'silence';
      }
      this.buffering = false;
    }

    const next = this.queue.shift();
    if (!next) return this.conceal(out);

    out.set(next);
    if (this.missing > 0) this.fadeIn(out);
    this.missing = 0;
    this.lastFrame.set(next);
    this.stats.played += 1;
    this.adaptDown();
    return 'audio';
  }

  getStats(): JitterStats {
    return { targetFrames: this.target, queuedFrames: this.queue.length, ...this.stats };
  }

  private conceal(out: Float32Array): PullResult {
    if (this.missing === 0) this.target = Math.min(this.maxFrames, this.target + 1);
    const gain = CONCEAL_GAINS[this.missing];
    this.missing += 1;
    if (gain === undefined) {
      // Nothing left to hide behind: wait for the target again before playing.
      this.buffering = true;
      out.fill(0);
      return 'silence';
    }
    // Fade from the last frame's level towards the reduced gain across the frame: no step, no click.
    const startGain = this.missing === 1 ? 1 : (CONCEAL_GAINS[this.missing - 2] ?? 0);
    for (let i = 0; i < out.length; i += 1) {
      const g = startGain + ((gain - startGain) * i) / out.length;
      out[i] = this.lastFrame[i]! * g;
    }
    this.stats.concealed += 1;
    return 'concealed';
  }

  private fadeIn(out: Float32Array) {
    const ramp = Math.min(out.length, 40);
    for (let i = 0; i < ramp; i += 1) out[i]! *= i / ramp;
  }

  private adaptDown() {
    if (this.queue.length > this.target + 1) {
      this.excessRun += 1;
      if (this.excessRun >= this.catchUpAfter) {
        this.queue.shift();
        this.stats.dropped += 1;
        this.target = Math.max(this.minFrames, this.target - 1);
        this.excessRun = 0;
      }
    } else {
      this.excessRun = 0;
    }
  }
}
