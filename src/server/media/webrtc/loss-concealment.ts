import { frameSamples, type CallSampleRate } from '../../../common/calls';

/*
 * The shape of ITU-T G.711 Appendix I's concealment: a lost stretch repeats the last pitch period
 * heard, at full level for 10 ms, then fading in a straight line to silence at 60 ms, so a long
 * loss goes quiet instead of buzzing. The native Opus build we use cannot conceal by itself
 * (docs/decisions/020).
 */
const HOLD_MS = 10;
const FADE_END_MS = 60;
/** How long the audio that returns after a loss takes to rise out of the concealment. */
const JOIN_MS = 5;
/** The pitch periods searched: 400 Hz down to 50 Hz, covering voices from a child's to a bass's. */
const HIGHEST_PITCH_HZ = 400;
const LOWEST_PITCH_HZ = 50;
/** The stretch of the newest audio matched against the one a period earlier. */
const MATCH_MS = 10;

/**
 * Fills the place of lost frames with frames that continue what was heard, and joins the audio
 * that returns to them without a click. Frames are mono Int16 at one rate, 20 ms each.
 */
export class LossConcealment {
  /** The last two frames played: room for the longest period and the stretch matched against it. */
  private readonly history: Int16Array;
  private readonly frame: Int16Array;
  private readonly samplesPerMs: number;
  private concealing = false;
  /** The period repeated, in samples; 0 when there is nothing to repeat. */
  private lag = 0;
  /** Samples made up since the loss began. */
  private position = 0;

  constructor(private readonly sampleRate: CallSampleRate) {
    this.frame = new Int16Array(frameSamples(sampleRate));
    this.history = new Int16Array(2 * this.frame.length);
    this.samplesPerMs = sampleRate / 1000;
  }

  /** The frame to play in place of a lost one; lent until the next call. */
  conceal(): Int16Array {
    if (!this.concealing) {
      this.concealing = true;
      this.position = 0;
      this.lag = this.pitchLag();
    }
    for (let i = 0; i < this.frame.length; i += 1) this.frame[i] = Math.round(this.continuation());
    return this.frame;
  }

  /** A loss too long to conceal: the listener has heard silence, so the next frame rises out of it. */
  silence() {
    this.concealing = true;
    this.position = FADE_END_MS * this.samplesPerMs;
  }

  /**
   * Readies a received frame for playing and remembers it. After a loss its first 5 ms are blended
   * from the concealment into the frame (the frame is changed in place).
   */
  play(frame: Int16Array) {
    if (this.concealing) {
      const join = JOIN_MS * this.samplesPerMs;
      for (let i = 0; i < join; i += 1) {
        const weight = (i + 1) / (join + 1);
        frame[i] = Math.round(weight * frame[i]! + (1 - weight) * this.continuation());
      }
      this.concealing = false;
    }
    this.history.copyWithin(0, frame.length);
    this.history.set(frame, this.history.length - frame.length);
  }

  /** The next made-up sample: the last period heard, over and over, at the fading level. */
  private continuation(): number {
    const gain = this.gain(this.position);
    const sample = gain > 0 && this.lag > 0 ? gain * this.history[this.history.length - this.lag + (this.position % this.lag)]! : 0;
    this.position += 1;
    return sample;
  }

  private gain(position: number): number {
    const hold = HOLD_MS * this.samplesPerMs;
    const end = FADE_END_MS * this.samplesPerMs;
    if (position < hold) return 1;
    if (position >= end) return 0;
    return 1 - (position - hold) / (end - hold);
  }

  /**
   * The period, in samples, at which the newest audio best matches the audio before it: the
   * largest cross-correlation, scaled by the earlier stretch's energy (the newest stretch's is the
   * same at every lag). Silence answers 0.
   */
  private pitchLag(): number {
    const { history } = this;
    const end = history.length;
    const window = MATCH_MS * this.samplesPerMs;
    let best = 0;
    let bestScore = 0;
    for (let lag = this.sampleRate / HIGHEST_PITCH_HZ; lag <= this.sampleRate / LOWEST_PITCH_HZ; lag += 1) {
      let cross = 0;
      let energy = 0;
      for (let i = end - window; i < end; i += 1) {
        const earlier = history[i - lag]!;
        cross += history[i]! * earlier;
        energy += earlier * earlier;
      }
      const score = energy > 0 ? cross / Math.sqrt(energy) : 0;
      if (score > bestScore) {
        bestScore = score;
        best = lag;
      }
    }
    return best;
  }
}
