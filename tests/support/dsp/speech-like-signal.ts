/**
 * Synthetic speech-like test signals for the voice engine's tests and bench/voice: harmonic tones
 * with a steady or gliding fundamental, and a stream of syllables (voiced vowels under formant
 * envelopes, noisy consonants, pauses between phrases). All are deterministic.
 */

export interface HarmonicToneOptions {
  sampleRate: number;
  seconds: number;
  /** Hz, steady or as a function of time in seconds. */
  fundamental: number | ((seconds: number) => number);
  /** Harmonics at 1/k amplitude (a −6 dB per octave slope, as voiced speech has on average). */
  harmonics?: number;
  /** Peak level, 1 being full scale. */
  peak?: number;
}

export function harmonicTone(options: HarmonicToneOptions): Float32Array {
  const { sampleRate, seconds, fundamental, harmonics = 15, peak = 0.5 } = options;
  const length = Math.round(sampleRate * seconds);
  const out = new Float32Array(length);
  const random = seededRandom(7);
  const phases = Float64Array.from({ length: harmonics }, () => random() * 2 * Math.PI);
  const frequencyAt = typeof fundamental === 'number' ? () => fundamental : fundamental;
  let cycles = 0;
  for (let i = 0; i < length; i += 1) {
    const f0 = frequencyAt(i / sampleRate);
    let value = 0;
    for (let k = 1; k <= harmonics && k * f0 < sampleRate / 2; k += 1) value += Math.sin(2 * Math.PI * k * cycles + phases[k - 1]!) / k;
    out[i] = value;
    cycles += f0 / sampleRate;
  }
  return normalisePeak(out, peak);
}

export interface SpeechLikeOptions {
  sampleRate: number;
  seconds: number;
  seed?: number;
  peak?: number;
}

/** Vowels as their first three formants (Hz). */
const VOWELS: readonly (readonly [number, number, number])[] = [
  [730, 1090, 2440],
  [270, 2290, 3010],
  [300, 870, 2240],
  [530, 1840, 2480],
  [570, 840, 2410],
  [660, 1720, 2410],
];
const FORMANT_BANDWIDTH_HZ = 120;

/**
 * Phrases of 3 to 8 syllables with a falling, accented intonation (95 to 260 Hz: the speaker's
 * base pitch is drawn per phrase), consonant noise between some syllables, pauses of 0.3 to 0.9 s
 * (-70 dBFS noise) between phrases.
 */
export function speechLikeSignal(options: SpeechLikeOptions): Float32Array {
  const { sampleRate, seconds, seed = 1, peak = 0.6 } = options;
  const random = seededRandom(seed);
  const length = Math.round(sampleRate * seconds);
  const out = new Float32Array(length);
  let at = 0;
  let cycles = 0;
  let noiseState = 0;
  const put = (value: number) => {
    if (at < length) out[at] = value;
    at += 1;
  };
  while (at < length) {
    const base = 95 + random() * 120;
    const syllables = 3 + Math.floor(random() * 6);
    for (let s = 0; s < syllables && at < length; s += 1) {
      if (random() < 0.5) {
        const consonant = Math.round(sampleRate * (0.04 + random() * 0.05));
        for (let i = 0; i < consonant; i += 1) {
          // High-passed white noise: a fricative.
          const white = random() * 2 - 1;
          const value = white - noiseState;
          noiseState = white;
          put(0.08 * value * Math.sin((Math.PI * i) / consonant));
        }
      }
      const vowel = VOWELS[Math.floor(random() * VOWELS.length)]!;
      const voiced = Math.round(sampleRate * (0.12 + random() * 0.13));
      const declination = 1 - (0.25 * s) / syllables;
      const accent = random() < 0.3 ? 1.25 : 1;
      for (let i = 0; i < voiced; i += 1) {
        const progress = i / voiced;
        const f0 = Math.min(260, base * declination * accent * (1 + 0.08 * Math.sin(Math.PI * progress)));
        const envelope = Math.min(1, i / (0.015 * sampleRate), (voiced - i) / (0.02 * sampleRate));
        let value = 0;
        for (let k = 1; k * f0 < Math.min(4000, sampleRate / 2); k += 1) {
          value += (formantGain(k * f0, vowel) / k) * Math.sin(2 * Math.PI * k * cycles);
        }
        put(0.12 * envelope * value);
        cycles += f0 / sampleRate;
      }
    }
    const pause = Math.round(sampleRate * (0.3 + random() * 0.6));
    for (let i = 0; i < pause; i += 1) put(0.0003 * (random() * 2 - 1));
  }
  return normalisePeak(out, peak);
}

/** The sum of three resonances at `hz`, each 1 at its centre. */
function formantGain(hz: number, formants: readonly [number, number, number]): number {
  let gain = 0.05;
  for (const center of formants) {
    const distance = (hz - center) / FORMANT_BANDWIDTH_HZ;
    gain += 1 / (1 + distance * distance);
  }
  return gain;
}

function normalisePeak(samples: Float32Array, peak: number): Float32Array {
  let max = 0;
  for (const value of samples) max = Math.max(max, Math.abs(value));
  if (max > 0) for (let i = 0; i < samples.length; i += 1) samples[i] = (samples[i]! * peak) / max;
  return samples;
}

/** A small deterministic generator (mulberry32), so every run uses the same signal. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Float samples (-1…1) as 16-bit PCM, the wire format. */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32767);
  return out;
}
