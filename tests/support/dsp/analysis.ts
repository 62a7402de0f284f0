/** Measurements of audio used by tests and benchmarks: the dominant frequency and the level. */

function goertzelPower(samples: ArrayLike<number>, sampleRate: number, frequency: number): number {
  const omega = (2 * Math.PI * frequency) / sampleRate;
  const coefficient = 2 * Math.cos(omega);
  let previous = 0;
  let beforePrevious = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const current = samples[i]! + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
}

/**
 * The frequency with the most energy between `minHz` and `maxHz`: a coarse scan in 5 Hz steps,
 * then a fine one in 0.1 Hz steps around the best.
 */
export function dominantFrequency(samples: ArrayLike<number>, sampleRate: number, minHz = 50, maxHz = Math.min(4000, sampleRate / 2)): number {
  let best = minHz;
  let bestPower = -1;
  for (let f = minHz; f <= maxHz; f += 5) {
    const power = goertzelPower(samples, sampleRate, f);
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  const coarse = best;
  for (let f = coarse - 5; f <= coarse + 5; f += 0.1) {
    const power = goertzelPower(samples, sampleRate, f);
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  return best;
}

/** Root-mean-square level, 0 for silence and about 0.707 for a full-scale sine (on -1…1 samples). */
export function rms(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i += 1) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / samples.length);
}

export function sine(frequency: number, sampleRate: number, length: number, amplitude = 0.5, phase = 0): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i += 1) out[i] = amplitude * Math.sin(phase + (2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

/**
 * The fundamental of a harmonic signal between `minHz` and `maxHz`: the frequency whose first
 * `harmonics` multiples hold the most energy together (1 Hz steps, then 0.01 Hz around the best).
 * Unlike `dominantFrequency` it finds the pitch when a harmonic is louder than the fundamental.
 */
export function fundamentalFrequency(samples: ArrayLike<number>, sampleRate: number, minHz: number, maxHz: number, harmonics = 5): number {
  const harmonicSum = (f: number) => {
    let sum = 0;
    for (let k = 1; k <= harmonics && k * f < sampleRate / 2; k += 1) sum += goertzelPower(samples, sampleRate, k * f);
    return sum;
  };
  let best = minHz;
  let bestPower = -1;
  for (let f = minHz; f <= maxHz; f += 1) {
    const power = harmonicSum(f);
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  const coarse = best;
  for (let step = -100; step <= 100; step += 1) {
    const f = coarse + step / 100;
    const power = harmonicSum(f);
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  return best;
}
