/** Touch-tones (DTMF, ITU-T Q.23): each key's two frequencies, a generator that puts them into PCM frames, and a Goertzel detector. */

export const DTMF_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;
export type DtmfKey = (typeof DTMF_KEYS)[number];

/** How long each key's tone sounds, and the silence before the next one. */
export const DTMF_TONE_MS = 160;
export const DTMF_GAP_MS = 80;

const ROWS = [697, 770, 852, 941] as const;
const COLUMNS = [1209, 1336, 1477] as const;

/** The row and column frequencies (Hz) of each key. */
export const DTMF_FREQUENCIES: Record<DtmfKey, readonly [number, number]> = {
  '1': [697, 1209], '2': [697, 1336], '3': [697, 1477],
  '4': [770, 1209], '5': [770, 1336], '6': [770, 1477],
  '7': [852, 1209], '8': [852, 1336], '9': [852, 1477],
  '*': [941, 1209], '0': [941, 1336], '#': [941, 1477],
};

/** About −10 dBFS per tone, a phone's level: the pair peaks at −4 dBFS, leaving room before clipping. */
const TONE_AMPLITUDE = 0.316 * 32767;
/** A short fade at each end of a tone, so that it starts and stops without a click. */
const RAMP_MS = 4;

/**
 * Queued keys played one after another as 160 ms tones with 80 ms gaps, at one sample rate.
 * While a tone sounds it replaces the voice, as a phone's keypad silences its microphone, so that
 * talking over a key cannot spoil the digit; in the gaps the voice goes through.
 */
export class DtmfTones {
  private readonly queue: DtmfKey[] = [];
  private current: DtmfKey | null = null;
  /** Samples of the current key played so far, its tone and its gap. */
  private position = 0;
  private readonly toneSamples: number;
  private readonly cycleSamples: number;
  private readonly rampSamples: number;
  private out: Int16Array;

  constructor(private readonly sampleRate: number) {
    this.toneSamples = Math.round((sampleRate * DTMF_TONE_MS) / 1000);
    this.cycleSamples = this.toneSamples + Math.round((sampleRate * DTMF_GAP_MS) / 1000);
    this.rampSamples = Math.round((sampleRate * RAMP_MS) / 1000);
    this.out = new Int16Array(0);
  }

  /** Keys waiting or sounding now. */
  get pending(): number {
    return this.queue.length + (this.current ? 1 : 0);
  }

  /** Queues the keys of `digits` (only 0-9, * and #; anything else throws). */
  add(digits: string) {
    for (const key of digits) {
      if (!isDtmfKey(key)) throw new RangeError(`Not a touch-tone key: ${key}`);
      this.queue.push(key);
    }
  }

  /**
   * The frame with the tones due in it: `frame` itself while nothing is queued, else a buffer of
   * this generator's, valid until the next call.
   */
  apply(frame: Int16Array): Int16Array {
    if (!this.current && !this.next()) return frame;
    if (this.out.length !== frame.length) this.out = new Int16Array(frame.length);
    const out = this.out;
    for (let i = 0; i < frame.length; i += 1) {
      if (!this.current) {
        out[i] = frame[i]!;
        continue;
      }
      out[i] = this.position < this.toneSamples ? this.toneSample(this.current, this.position) : frame[i]!;
      this.position += 1;
      if (this.position >= this.cycleSamples) this.next();
    }
    return out;
  }

  private next(): boolean {
    this.current = this.queue.shift() ?? null;
    this.position = 0;
    return this.current !== null;
  }

  private toneSample(key: DtmfKey, position: number): number {
    const [row, column] = DTMF_FREQUENCIES[key];
    const t = position / this.sampleRate;
    const edge = Math.min(position, this.toneSamples - 1 - position);
    const ramp = edge < this.rampSamples ? 0.5 - 0.5 * Math.cos((Math.PI * edge) / this.rampSamples) : 1;
    return Math.round(TONE_AMPLITUDE * ramp * (Math.sin(2 * Math.PI * row * t) + Math.sin(2 * Math.PI * column * t)));
  }
}

export function isDtmfKey(key: string): key is DtmfKey {
  return (DTMF_KEYS as readonly string[]).includes(key);
}

/** The amplitude (0–1 of full scale) of `frequency` in the block, by the Goertzel algorithm. */
export function goertzelAmplitude(samples: ArrayLike<number>, start: number, length: number, sampleRate: number, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (let i = start; i < start + length; i += 1) {
    const current = samples[i]! + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return (2 * Math.sqrt(Math.max(0, power))) / length;
}

/** Blocks of about 25 ms, as the classic 205 samples at 8 kHz: rows 73 Hz apart stay apart. */
const BLOCK_MS = 25.6;
/** A block is a key when its two tones carry this share of its energy... */
const MIN_TONE_SHARE = 0.6;
/** ...each tone at least this loud (about −40 dBFS)... */
const MIN_AMPLITUDE = 0.01;
/** ...and the strongest row and column each this many times the runner-up. */
const MIN_LEAD = 2;
/** Blocks in a row a key must hold to count: one tone makes several, noise rarely two. */
const HOLD_BLOCKS = 2;
/**
 * A key heard again after at most this many blocks without it is the same tone, interrupted (a
 * playback dropout or a concealed packet), not a second press: the sender's 80 ms gap always
 * leaves at least two whole blocks without the key.
 */
const MAX_INTERRUPTION_BLOCKS = 1;

/**
 * The keys heard in mono audio (samples scaled to ±1), in order: a key counts once it holds for
 * two blocks, and again only after two blocks or more without it.
 */
export function detectDtmf(samples: ArrayLike<number>, sampleRate: number): string {
  const block = Math.round((sampleRate * BLOCK_MS) / 1000);
  let heard = '';
  let candidate: DtmfKey | null = null;
  let held = 0;
  let counted: DtmfKey | null = null;
  let blocksWithoutCounted = 0;
  for (let start = 0; start + block <= samples.length; start += block) {
    const key = blockKey(samples, start, block, sampleRate);
    if (key !== null && key === counted && blocksWithoutCounted <= MAX_INTERRUPTION_BLOCKS) {
      blocksWithoutCounted = 0;
      candidate = null;
      held = 0;
      continue;
    }
    blocksWithoutCounted += 1;
    if (key !== candidate) {
      candidate = key;
      held = 0;
    }
    held += 1;
    if (candidate && held === HOLD_BLOCKS) {
      heard += candidate;
      counted = candidate;
      blocksWithoutCounted = 0;
    }
  }
  return heard;
}

function strongest(amplitudes: number[]): { index: number; lead: number } {
  const sorted = [...amplitudes].sort((a, b) => b - a);
  return { index: amplitudes.indexOf(sorted[0]!), lead: sorted[0]! / Math.max(sorted[1]!, 1e-9) };
}

function blockKey(samples: ArrayLike<number>, start: number, length: number, sampleRate: number): DtmfKey | null {
  let energy = 0;
  for (let i = start; i < start + length; i += 1) energy += samples[i]! * samples[i]!;
  const rows = ROWS.map((frequency) => goertzelAmplitude(samples, start, length, sampleRate, frequency));
  const columns = COLUMNS.map((frequency) => goertzelAmplitude(samples, start, length, sampleRate, frequency));
  const row = strongest(rows);
  const column = strongest(columns);
  const rowAmplitude = rows[row.index]!;
  const columnAmplitude = columns[column.index]!;
  if (rowAmplitude < MIN_AMPLITUDE || columnAmplitude < MIN_AMPLITUDE || row.lead < MIN_LEAD || column.lead < MIN_LEAD) return null;
  const toneEnergy = (rowAmplitude * rowAmplitude + columnAmplitude * columnAmplitude) / 2;
  if (toneEnergy < MIN_TONE_SHARE * (energy / length)) return null;
  return DTMF_KEYS[row.index * 3 + column.index]!;
}
