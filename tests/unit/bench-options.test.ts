/**
 * `npm run bench`'s flags (scripts/bench/options.ts): --min-ms, which keeps a trainer's timed steps going until that
 * much time has passed, takes whole milliseconds ≥ 0 and falls back to the per-backend default when absent.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MIN_MS, parseOptions, UsageError, type BenchOptions } from '../../scripts/bench/options';

const parsed = (argv: string[]) => parseOptions(argv) as BenchOptions;

describe('bench options', () => {
  it('read --min-ms as whole milliseconds, absent as the per-backend default', () => {
    expect(parsed(['--min-ms', '250']).minMs).toBe(250);
    expect(parsed(['--min-ms', '0']).minMs).toBe(0); // --steps alone decides
    expect(parsed([]).minMs).toBeNull();
    expect(DEFAULT_MIN_MS.wasm).toBeGreaterThan(0);
    expect(DEFAULT_MIN_MS.cpu).toBe(0); // a cpu step of the lab model takes ~20× a wasm one: --steps suffices
  });

  it('refuse a --min-ms that is not a whole number ≥ 0', () => {
    for (const bad of ['-1', '1.5', '1e3', 'soon', '']) expect(() => parseOptions(['--min-ms', bad]), bad).toThrow(UsageError);
    expect(() => parseOptions(['--min-ms', '1.5'])).toThrow(/--min-ms must be an integer ≥ 0/);
  });
});
