/**
 * Deterministic pseudo-random numbers (mulberry32) for tests that pick random moments or
 * values: a failing run prints its seed, and the same seed replays the same choices.
 */
export interface SeededRandom {
  readonly seed: number;
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

export function seededRandom(seed = Math.floor(Math.random() * 2 ** 32)): SeededRandom {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed: seed >>> 0, next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

/** The seed from `name` in the environment (to replay a failure), else a fresh one. */
export function seedFromEnv(name: string): number {
  const text = process.env[name];
  if (text === undefined || text === '') return Math.floor(Math.random() * 2 ** 32);
  if (!/^\d+$/.test(text) || Number(text) >= 2 ** 32) throw new Error(`${name}=${text}: must be an integer 0..4294967295`);
  return Number(text);
}
