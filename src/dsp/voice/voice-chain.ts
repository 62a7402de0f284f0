import type { VoiceSettings } from '../../common/voice';
import { VoiceEqualizer } from './equalizer';
import { LoudnessKeeper } from './loudness-keeper';
import { OutputLimiter } from './output-limiter';
import { PitchSynchronousShifter, type GrainTempo } from './pitch-synchronous-shifter';
import { SampleHistory } from './sample-history';
import { voiceCharacters } from './voice-characters';

/** The processing shared by live calls and recordings: pitch, formants and tempo, then tone, then the level kept, then the limiter. */
export class VoiceChain {
  readonly history: SampleHistory;
  readonly shifter: PitchSynchronousShifter;
  readonly limiter: OutputLimiter;
  private readonly equalizer: VoiceEqualizer;
  private readonly loudness: LoudnessKeeper;
  private readonly work: Float32Array;

  /** `marks`, where the pitch marks are found, is the input itself unless given (see VoiceEngine). */
  constructor(sampleRate: number, blockSize: number, historyLength: number, tempo: GrainTempo, marks?: SampleHistory) {
    this.history = new SampleHistory(historyLength);
    this.shifter = new PitchSynchronousShifter(this.history, sampleRate, tempo, marks);
    this.equalizer = new VoiceEqualizer(sampleRate, blockSize);
    this.limiter = new OutputLimiter(sampleRate);
    this.loudness = new LoudnessKeeper(sampleRate);
    this.work = new Float32Array(blockSize);
  }

  /** Takes effect from the next grain and glides the tone over one block. */
  configure(settings: VoiceSettings) {
    const character = voiceCharacters[settings.voiceType];
    this.shifter.setShape({ pitch: settings.pitch * character.pitch, formant: character.formant });
    this.equalizer.setGains(character.equalizer);
  }

  start(outputStart: number, analysisStart: number) {
    this.shifter.reset(outputStart, analysisStart);
    this.equalizer.reset();
    this.loudness.reset();
    this.limiter.reset();
  }

  /** Renders the next `count` samples (at most one block) into a buffer that the next call reuses. */
  render(count: number): Float32Array {
    const from = this.shifter.analysisTime;
    this.shifter.render(this.work, count);
    this.equalizer.process(this.work, count);
    this.loudness.process(this.work, count, this.history, from, this.shifter.analysisTime);
    return this.work;
  }
}
