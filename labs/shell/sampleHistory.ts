/**
 * The inspectors' history of sampled batches, bounded without losing the start of the run: the first and the latest
 * EDGE entries are always kept, and between them the steps that are multiples of 2, 4, 8… (the smallest power of two
 * that fits), so what is kept stays spread evenly over the run. A run learns most in its first steps (the agent by
 * step 10), which a plain "last 30" would drop within seconds.
 */
export const MAX_SAMPLES = 40;
const EDGE = 10;

export function keepSample<T extends { step: number }>(kept: readonly T[], next: T, max = MAX_SAMPLES): T[] {
  const all = [...kept, next];
  if (all.length <= max) return all;
  const head = all.slice(0, EDGE);
  const tail = all.slice(-EDGE);
  const between = all.slice(EDGE, -EDGE);
  for (let stride = 2; ; stride *= 2) {
    const middle = between.filter((s) => s.step % stride === 0);
    if (middle.length + 2 * EDGE <= max) return [...head, ...middle, ...tail];
  }
}
