/** A source of numbers uniform in [0, 1), like Math.random. */
export type Random = () => number;

/**
 * mulberry32: 32 bits of state, fast, and good enough to decide which packets a simulated link
 * loses. The same seed always gives the same sequence, so an impaired run can be replayed.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for the n-th independent stream drawn from one run seed (the relay's two directions…). */
export function derivedSeed(seed: number, stream: number): number {
  return seededRandom((seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0)() * 4294967296;
}
