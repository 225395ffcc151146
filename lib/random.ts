import seedrandom from 'seedrandom';

/**
 * A seeded random generator. Everything random in lib/ (weight init, sampling, task generation) draws from one of
 * these, so a seed reproduces a run exactly on any backend.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /**
   * A seed for tfjs random ops (`tf.randomNormal`, `tf.dropout`…). Never 0: tfjs reads a seed of 0 as "unseeded".
   */
  tfSeed(): number;
  /** An independent generator derived from this one's seed and a label (does not advance this one). */
  fork(label: string): Rng;
  /** Fisher–Yates shuffle in place; returns the array. */
  shuffle<T>(xs: T[]): T[];
}

/** Creates a generator from a number or string seed (alea: fast, good enough for ML, deterministic across platforms). */
export function createRng(seed: number | string): Rng {
  const key = String(seed);
  const prng = seedrandom.alea(key);
  const rng: Rng = {
    next: () => prng(),
    int: (n) => Math.floor(prng() * n),
    normal: () => {
      const u = 1 - prng(); // (0, 1]: keeps log finite
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * prng());
    },
    tfSeed: () => 1 + Math.floor(prng() * 2_147_483_646),
    fork: (label) => createRng(`${key}/${label}`),
    shuffle: (xs) => {
      for (let i = xs.length - 1; i > 0; i--) {
        const j = Math.floor(prng() * (i + 1));
        [xs[i], xs[j]] = [xs[j], xs[i]];
      }
      return xs;
    },
  };
  return rng;
}
