/**
 * `npm run bench`'s flags (scripts/bench/options.ts): --min-ms, which keeps a trainer's timed steps going until that
 * much time has passed, takes whole milliseconds ≥ 0 and falls back to the per-backend default when absent; and the
 * rule the timing loop follows.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TIMED_STEPS, parseOptions, timeAnotherStep, UsageError, type BenchOptions } from '../../scripts/bench/options';

const parsed = (argv: string[]) => parseOptions(argv) as BenchOptions;

describe('bench options', () => {
  it('read --min-ms as whole milliseconds, absent as the per-backend default', () => {
    expect(parsed(['--min-ms', '250']).minMs).toBe(250);
    expect(parsed(['--min-ms', '0']).minMs).toBe(0); // --steps alone decides
    expect(parsed([]).minMs).toBeNull();
  });

  it('refuse a --min-ms that is not a whole number ≥ 0', () => {
    for (const bad of ['-1', '1.5', '1e3', 'soon', '']) expect(() => parseOptions(['--min-ms', bad]), bad).toThrow(UsageError);
    expect(() => parseOptions(['--min-ms', '1.5'])).toThrow(/--min-ms must be an integer ≥ 0/);
  });

  it('time at least --steps steps, then on while under --min-ms, never past MAX_TIMED_STEPS', () => {
    expect(timeAnotherStep(14, 5000, 15, 1500)).toBe(true); // --steps first, however long they take
    expect(timeAnotherStep(15, 5000, 15, 1500)).toBe(false);
    expect(timeAnotherStep(15, 400, 15, 1500)).toBe(true); // fast steps: on until 1.5 s
    expect(timeAnotherStep(900, 1499, 15, 1500)).toBe(true);
    expect(timeAnotherStep(900, 1500, 15, 1500)).toBe(false);
    expect(timeAnotherStep(MAX_TIMED_STEPS, 10, 15, 1500)).toBe(false);
    expect(timeAnotherStep(15, 0, 15, 0)).toBe(false); // --min-ms 0: --steps alone
  });
});
