import { frameSamples, type CallSampleRate } from '../../common/calls';
import { isDefaultVoice, type VoiceSettings } from '../../common/voice';
import { FixedTempo, LiveTempo } from './live-tempo';
import type { SampleHistory } from './sample-history';
import { SpeechActivity } from './speech-activity';
import { VoiceChain } from './voice-chain';
import { VoiceEngineError } from './voice-engine-error';
import { checkSampleRate, checkVoiceSettings } from './voice-settings-check';

/**
 * The live voice changer for one caller's outgoing audio: 20 ms frames of mono 16-bit PCM in, one
 * frame out for each (docs/decisions/007-voice-engine-td-psola.md). The normal voice is passed
 * through untouched with no delay; any effect adds the pitch shifter's delay (29 ms), and a live
 * speed other than 1 up to 300 ms in all. Switching effects on or off cross-fades over one frame;
 * other changes apply from the next pitch period. Every buffer is made once, in the constructor.
 */

/** The most delay live speed may build up, the pitch shifter's included. */
const MAX_LIVE_DELAY_SECONDS = 0.3;

export class VoiceEngine {
  readonly sampleRate: number;
  readonly frameSize: number;
  /** The delay of any effect, in samples; one pitch period may come up to half its own length early or late. */
  readonly effectLatencySamples: number;
  /** Half the longest pitch period tracked (60 Hz): how far one period may stray from `effectLatencySamples`. */
  readonly periodJitterSamples: number;
  /** The most delay the engine ever adds, live speed included. */
  readonly maxLatencySamples: number;

  private readonly chain: VoiceChain;
  private readonly tempo: LiveTempo;
  private current: Readonly<VoiceSettings>;
  private running = false;
  private fadingIn = false;

  /**
   * `marks` is for measuring, never for calls: the pitch marks are then found on it rather than on
   * the input, whose grains are still the ones moved. A caller that writes a noisy voice into it,
   * frame by frame before each `process`, and hands `process` the same voice without the noise
   * hears what the engine, led by the noisy voice, does to the voice alone (decision 026). It must
   * hold a second of audio.
   */
  constructor(sampleRate: CallSampleRate, settings: VoiceSettings, marks?: SampleHistory) {
    checkSampleRate(sampleRate);
    checkVoiceSettings(settings);
    this.sampleRate = sampleRate;
    this.frameSize = frameSamples(sampleRate);
    const maxDelay = Math.round(sampleRate * MAX_LIVE_DELAY_SECONDS);
    // Time-stretching reads back as far as the largest delay, plus the pitch tracker's window.
    const historyLength = maxDelay + Math.round(sampleRate * 0.1);
    if (marks && marks.length < sampleRate) throw new Error(`the history marks are found on holds ${marks.length} samples, under a second at ${sampleRate} Hz`);
    this.chain = new VoiceChain(sampleRate, this.frameSize, historyLength, new FixedTempo(1), marks);
    const shifter = this.chain.shifter;
    this.effectLatencySamples = shifter.liveDelay;
    this.periodJitterSamples = Math.ceil(shifter.maxPeriod / 2);
    this.maxLatencySamples = maxDelay;
    const activity = new SpeechActivity(this.chain.history, sampleRate);
    this.tempo = new LiveTempo(activity, shifter.liveDelay, maxDelay - shifter.liveDelay - this.periodJitterSamples);
    shifter.tempo = this.tempo;
    this.current = Object.freeze({ ...settings });
    this.apply();
  }

  /** The settings in force; frozen, and not copied, since the media bridge reads them every frame. */
  get settings(): Readonly<VoiceSettings> {
    return this.current;
  }

  /** The delay the engine adds right now, in samples: 0 while the normal voice passes through. */
  get latencySamples(): number {
    return this.running ? Math.round(this.chain.shifter.delay) : 0;
  }

  /** Checks and applies new settings; invalid ones throw and leave the old ones in place. */
  update(settings: VoiceSettings) {
    checkVoiceSettings(settings);
    this.current = Object.freeze({ ...settings });
    this.apply();
  }

  /** Changes one frame. Throws on a frame of the wrong size rather than let any audio through. */
  process(input: Int16Array, output: Int16Array) {
    const size = this.frameSize;
    if (input.length !== size || output.length !== size) throw VoiceEngineError.frameSize(size, input.length, output.length);
    const history = this.chain.history;
    history.writeInt16(input);
    const active = !isDefaultVoice(this.current);
    if (!active && !this.running) {
      output.set(input);
      return;
    }
    if (!this.running) {
      const frameStart = history.written - size;
      this.chain.start(frameStart, frameStart - this.effectLatencySamples);
      this.running = true;
      this.fadingIn = true;
    }
    const processed = this.chain.render(size);
    if (this.fadingIn || !active) {
      // A raised-cosine cross-fade between the untouched input and the effect, over this frame.
      const fadeIn = this.fadingIn;
      for (let i = 0; i < size; i += 1) {
        const ramp = 0.5 - 0.5 * Math.cos((Math.PI * (i + 0.5)) / size);
        const effect = fadeIn ? ramp : 1 - ramp;
        processed[i] = processed[i]! * effect + (input[i]! / 32768) * (1 - effect);
      }
      this.fadingIn = false;
      if (!active) this.running = false;
    }
    this.chain.limiter.toInt16(processed, size, output);
  }

  private apply() {
    this.chain.configure(this.current);
    this.tempo.speed = this.current.speed;
  }
}
