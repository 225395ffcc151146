import { describe, expect, it } from 'vitest';
import type { LogLine } from '@/lib/train/run';
import { CLAIMS } from '../../scripts/claims/catalog';

// The teams section of chapter 10 (issue 36) prints figures from seven seeded 200-step runs of the team lab.
// Rerunning them here took 64 s of `npm test`, so the two team claims of scripts/claims/catalog.ts rebuild each of
// the section's sentences from their own runs and fail when chapter 10 no longer prints it (`npm run claims --
// --only team-protocol-emerges`, `team-failures`). This test checks that wiring on made-up runs, in milliseconds:
// runs with the section's numbers pass, and a run one number off is reported as a sentence the chapter does not print.

const claim = (id: string) => CLAIMS.find((c) => c.id === id)!;
const evalLine = (step: number, metrics: Record<string, number>): LogLine => ({ step, kind: 'eval', metrics });
const ended = (metrics: Record<string, number>) => [evalLine(0, metrics), evalLine(200, metrics)];
const team = (accuracy: number, blank: number) => ({ 'eval/accuracy': accuracy, 'eval/accuracy_blank_channel': blank, 'eval/message_decodability': 1, 'eval/distinct_messages': 4 });

/** The default run of seed 0 as the section tells it: 28% (31% blanked) at the start, past 95% at step 125, 100% at the end. */
function seed0(finalAccuracy = 1): LogLine[] {
  const curve = [0.28, 0.4, 0.6, 0.8, 0.9, 0.96, 0.98, 0.99, finalAccuracy];
  return curve.map((a, i) => evalLine(25 * i, i === 0 ? team(a, 0.31) : team(a, 0.325)));
}
const protocolRuns = (finalSeed0 = 1) => ({
  seed0: seed0(finalSeed0),
  seed1: ended(team(0.995, 0.335)),
  seed2: ended(team(1, 0.255)),
  noMessage: ended(team(0.325, 0.325)),
  frozen: ended(team(0.24, 0.24)),
});

describe('the team claims check what chapter 10 prints', () => {
  it('runs with the section’s numbers pass team-protocol-emerges', () => {
    const verdict = claim('team-protocol-emerges').check(protocolRuns());
    expect(verdict.figure).not.toContain('does not print');
    expect(verdict.holds).toBe(true);
  });

  it('a seed that ends one point lower is a sentence the chapter does not print, and the claim fails', () => {
    const verdict = claim('team-protocol-emerges').check(protocolRuns(0.99));
    expect(verdict.holds).toBe(false);
    expect(verdict.figure).toContain('does not print: Over seeds 0, 1 and 2, after 200 steps the team ends at 99%, 99.5% and 100%');
  });

  it('team-failures reads the from_scratch and lazy_partner sentences the same way', () => {
    const failures = claim('team-failures');
    const runs = (lazyAccuracy: number) => ({
      scratch: ended({ ...team(0.275, 0.275), 'eval/distinct_messages': 1 }),
      lazy: ended({ ...team(lazyAccuracy, lazyAccuracy), 'eval/distinct_messages': 1 }),
      noMessage: ended(team(0.325, 0.325)),
    });
    expect(failures.check(runs(0.09)).holds).toBe(true);
    const off = failures.check(runs(0.1));
    expect(off.holds).toBe(false);
    expect(off.figure).toContain('does not print: with the receiver learning 10 times faster (lazy_partner) the team ends at 10%');
  });
});
