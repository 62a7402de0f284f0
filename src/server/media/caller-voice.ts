import { frameSamples, type CallSampleRate } from '../../common/calls';
import { isDefaultVoice, type VoiceSettings } from '../../common/voice';
import { VoiceEngine } from '../../dsp/voice/voice-engine';

/** Frames in a row that took longer than real time before the changer counts as fallen behind. */
const SLOW_FRAMES_LIMIT = 5;
const FRAME_MS = 20;

export interface CallerVoiceOptions {
  /** The clock, in milliseconds (tests drive it). */
  now?: () => number;
  /** Told the engine's time on each frame, in seconds (voxline_voice_engine_frame_seconds). */
  frameTimes?: { observe(seconds: number): void };
}

/**
 * The caller's voice changer on their outgoing audio (docs/calls.md#media). Voice privacy fails closed: while
 * an effect is on, a frame the engine cannot change (it throws, or keeps taking longer than the
 * frame lasts) becomes silence, and `onFailure` says so once; the unchanged voice is never sent.
 * New settings (`update`) give the engine another chance.
 */
export class CallerVoice {
  private readonly engine: VoiceEngine;
  private readonly output: Int16Array;
  private readonly silence: Int16Array;
  private readonly now: () => number;
  private readonly frameTimes: CallerVoiceOptions['frameTimes'];
  private failed = false;
  private slowFrames = 0;

  constructor(
    sampleRate: CallSampleRate,
    settings: VoiceSettings,
    private readonly onFailure: (reason: string) => void,
    { now = () => performance.now(), frameTimes }: CallerVoiceOptions = {},
  ) {
    this.now = now;
    this.frameTimes = frameTimes;
    this.engine = new VoiceEngine(sampleRate, settings);
    this.output = new Int16Array(frameSamples(sampleRate));
    this.silence = new Int16Array(frameSamples(sampleRate));
  }

  get settings(): VoiceSettings {
    return this.engine.settings;
  }

  update(settings: VoiceSettings) {
    this.engine.update(settings);
    this.failed = false;
    this.slowFrames = 0;
  }

  /** The frame as the far end should hear it; lent, like every frame (leg.ts). */
  apply(frame: Int16Array): Int16Array {
    if (this.failed) return this.silence;
    const effect = !isDefaultVoice(this.engine.settings);
    const started = this.now();
    try {
      this.engine.process(frame, this.output);
    } catch {
      if (!effect) return frame;
      return this.fail('The voice changer stopped working, so the other side hears silence instead of your own voice. Change or reset your voice settings to try again.');
    }
    const elapsedMs = this.now() - started;
    this.frameTimes?.observe(elapsedMs / 1000);
    if (effect && elapsedMs > FRAME_MS) {
      this.slowFrames += 1;
      if (this.slowFrames >= SLOW_FRAMES_LIMIT) return this.fail('The voice changer could not keep up, so the other side hears silence instead of your own voice. Change or reset your voice settings to try again.');
    } else {
      this.slowFrames = 0;
    }
    return this.output;
  }

  private fail(reason: string): Int16Array {
    this.failed = true;
    this.onFailure(reason);
    return this.silence;
  }
}
