import { describe, expect, it } from 'vitest';
import type { LogLine } from '@/lib/train/run';
import { CLAIMS } from '../../scripts/claims/catalog';

// Chapter 10's perception section and chapter 1's Perception row print figures from eight seeded vision runs (about
// four minutes of CPU), too long for `npm test`. The vision claims of scripts/claims/catalog.ts rebuild each of
// those sentences from their own runs and fail when a chapter no longer prints it (`npm run claims -- --only
// vision-grpo-lifts-printed,vision-sees,vision-counting`; vision-grpo-lifts checks the lift alone, per seed). This test checks that wiring on made-up runs, in milliseconds: runs
// with the chapter's numbers pass, and a run one number off is reported as a sentence the chapter does not print.

const claim = (id: string) => CLAIMS.find((c) => c.id === id)!;
const evalLine = (step: number, metrics: Record<string, number>): LogLine => ({ step, kind: 'eval', metrics });
/** A run from base evaluated at the end of SFT (step 800) and at its end (step 1,600: counting; 950: text_only). */
const run = (sftEnd: Record<string, number>, end: Record<string, number>) => [evalLine(0, { 'eval/accuracy': 0 }), evalLine(800, sftEnd), evalLine(1600, end)];
/** The default: GRPO from the SFT checkpoint, evaluated at step 0 (the checkpoint) and after its 150 steps. */
const fromCheckpoint = (start: Record<string, number>, end: Record<string, number>) => [evalLine(0, start), evalLine(75, acc(0.5)), evalLine(150, end)];
const acc = (a: number) => ({ 'eval/accuracy': a });

const START = 0.5;
const END = [0.568, 0.564, 0.574];
const BLIND = [0.226, 0.222, 0.222];
const defaults = (end = END) => Object.fromEntries(end.map((a, seed) => [`seed${seed}`, fromCheckpoint(acc(START), acc(a))]));

describe('the vision claims check what chapters 10 and 1 print', () => {
  it('runs with the chapter’s numbers pass vision-grpo-lifts, vision-grpo-lifts-printed and vision-sees', () => {
    expect(claim('vision-grpo-lifts').check(defaults()).holds).toBe(true);
    const lifts = claim('vision-grpo-lifts-printed').check(defaults());
    expect(lifts.figure).not.toContain('does not print');
    expect(lifts.holds).toBe(true);
    const sees = claim('vision-sees').check({ ...defaults(), ...Object.fromEntries(BLIND.map((a, seed) => [`blind${seed}`, run(acc(a), acc(a))])) });
    expect(sees.figure).not.toContain('does not print');
    expect(sees.holds).toBe(true);
  });

  it('a seed that ends one point lower is a sentence the chapter does not print, and the claim fails although its lift is still ≥ 5', () => {
    expect(claim('vision-grpo-lifts').check(defaults([0.568, 0.554, 0.574])).holds).toBe(true);
    const verdict = claim('vision-grpo-lifts-printed').check(defaults([0.568, 0.554, 0.574]));
    expect(verdict.holds).toBe(false);
    expect(verdict.figure).toContain("does not print: Over seeds 0, 1 and 2, GRPO lifts held-out accuracy from the checkpoint's 50% to 56.8%, 55.4% and 57.4%: 6.8, 5.4 and 7.4 points");
    // A lift under 5 points on one seed fails the claim itself.
    expect(claim('vision-grpo-lifts').check(defaults([0.568, 0.549, 0.574])).holds).toBe(false);
  });

  it('vision-counting reads the counting sentences the same way', () => {
    const counting = (all: number) => run(acc(COUNTING.sft), { ...acc(COUNTING.end), 'eval/accuracy_count_all': all, 'eval/accuracy_count_colour': COUNTING.colour, 'eval/accuracy_count_shape': COUNTING.shape });
    const check = (all: number) => claim('vision-counting').check({ counting: counting(all), blind: run(acc(COUNTING.blind), acc(COUNTING.blind)) });
    const ok = check(COUNTING.all);
    expect(ok.figure).not.toContain('does not print');
    expect(ok.holds).toBe(true);
    const off = check(COUNTING.all - 0.01);
    expect(off.holds).toBe(false);
    expect(off.figure).toContain('does not print: the count of all shapes is right');
  });
});

/** The counting run of seed 0 as the section tells it. */
const COUNTING = { sft: 0.484, end: 0.466, blind: 0.174, all: 0.97, colour: 0.223, shape: 0.217 };
