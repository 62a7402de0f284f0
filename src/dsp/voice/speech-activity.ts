import type { SampleHistory } from './sample-history';

/**
 * Tells speech from pauses in 10 ms blocks of the input: a block is speech when it stands 12 dB
 * above the noise floor (followed slowly upwards, at once downwards) and above -55 dBFS.
 */

const BLOCK_SECONDS = 0.01;
const MIN_SPEECH_DB = -55;
const ABOVE_FLOOR_DB = 12;
const FLOOR_RISE_DB_PER_BLOCK = 0.02;
/** A pause must have lasted this long: the gaps inside words are not pauses. */
const PAUSE_SECONDS = 0.08;

export class SpeechActivity {
  private readonly history: SampleHistory;
  private readonly block: number;
  private readonly speech: Uint8Array;
  private readonly mask: number;
  private readonly pause: number;
  private analysedBlocks = 0;
  private floorDb = MIN_SPEECH_DB;

  constructor(history: SampleHistory, sampleRate: number) {
    this.history = history;
    this.block = Math.round(sampleRate * BLOCK_SECONDS);
    let size = 1;
    while (size < history.length / this.block) size *= 2;
    this.speech = new Uint8Array(size);
    this.mask = size - 1;
    this.pause = Math.round(sampleRate * PAUSE_SECONDS);
  }

  /** Classifies every complete block written so far. */
  update() {
    const { samples, mask } = this.history;
    const complete = Math.floor(this.history.written / this.block);
    let index = Math.max(this.analysedBlocks, complete - this.speech.length);
    for (; index < complete; index += 1) {
      let energy = 0;
      const start = index * this.block;
      for (let i = start; i < start + this.block; i += 1) energy += samples[i & mask]! * samples[i & mask]!;
      const db = 10 * Math.log10(energy / this.block + 1e-12);
      this.floorDb = db < this.floorDb ? db : this.floorDb + FLOOR_RISE_DB_PER_BLOCK;
      this.speech[index & this.mask] = db > Math.max(MIN_SPEECH_DB, this.floorDb + ABOVE_FLOOR_DB) ? 1 : 0;
    }
    this.analysedBlocks = complete;
  }

  /** Whether input time `at` ends a pause; speech that follows it is not stretched before it starts. */
  isPause(at: number): boolean {
    const first = Math.floor((at - this.pause) / this.block);
    const last = Math.min(this.analysedBlocks - 1, Math.floor(at / this.block));
    if (last < first) return false;
    for (let index = first; index <= last; index += 1) {
      if (this.speech[index & this.mask] === 1) return false;
    }
    return true;
  }
}
