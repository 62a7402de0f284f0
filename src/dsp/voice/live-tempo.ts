import type { GrainTempo } from './pitch-synchronous-shifter';
import type { SpeechActivity } from './speech-activity';

/**
 * Speed in a live call, where speech cannot come out faster than it goes in. Slower speech is
 * stretched while the delay it builds stays within budget, and the pauses after it are shortened
 * to win the delay back. Faster speech needs speech in hand: a pause is lengthened to build up a
 * delay, and the next stretch of speech is played faster until the delay is used up.
 */

/** How fast a pause is played to shorten it (silence played fast is still silence)… */
const SHORTENING_TEMPO = 3;
/** …and to lengthen it. */
const LENGTHENING_TEMPO = 0.5;

export class LiveTempo implements GrainTempo {
  speed = 1;
  private readonly activity: SpeechActivity;
  private readonly baseDelay: number;
  private readonly maxExtraDelay: number;

  /** `baseDelay` is the pitch shifter's own; speed adds at most `maxExtraDelay` on top of it. */
  constructor(activity: SpeechActivity, baseDelay: number, maxExtraDelay: number) {
    this.activity = activity;
    this.baseDelay = baseDelay;
    this.maxExtraDelay = maxExtraDelay;
  }

  tempoForGrain(analysisTime: number, synthesisTime: number, spacing: number): number {
    const extra = synthesisTime - analysisTime - this.baseDelay;
    // At speed 1 with no delay to win back, pauses and speech alike go at tempo 1.
    if (this.speed === 1 && extra <= 1) return Math.min(1, 1 + extra / spacing);
    let tempo = this.speed;
    this.activity.update();
    if (this.activity.isPause(analysisTime)) {
      const target = this.speed > 1 ? this.maxExtraDelay : 0;
      tempo = extra > target + 1 ? SHORTENING_TEMPO : extra < target - 1 ? LENGTHENING_TEMPO : 1;
    }
    // After this grain the extra delay becomes extra + spacing * (1 - tempo): keep it in budget.
    const fastest = 1 + extra / spacing;
    const slowest = 1 - (this.maxExtraDelay - extra) / spacing;
    return Math.min(fastest, Math.max(slowest, tempo));
  }
}

/** The same tempo everywhere, for recordings. */
export class FixedTempo implements GrainTempo {
  constructor(readonly speed: number) {}

  tempoForGrain(): number {
    return this.speed;
  }
}
