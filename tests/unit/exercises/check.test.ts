/**
 * The exercise checker (lib/exercises/check.ts, compare.ts) with the Node sandbox and the core's references: what a
 * reader sees for each way code can be wrong, and that near-misses of the real formulas are caught.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOLERANCE, exerciseNamed, exercises, type Exercise } from '@/content/exercises';
import { checkExercise, describeResult, drawCases, resultLine, type CheckResult } from '@/lib/exercises/check';
import { compareValue, formatValue } from '@/lib/exercises/compare';
import { expectedValues } from '@/lib/exercises/reference';
import { createNodeSandbox } from '@/lib/sandbox/node';
import type { CodeSandbox } from '@/lib/sandbox/outcome';

let sandbox: CodeSandbox;
beforeAll(() => {
  sandbox = createNodeSandbox();
});
afterAll(() => sandbox.dispose());

const exercise = (id: string) => exerciseNamed(id)!;
const run = (id: string, source: string, seed = 11): Promise<CheckResult> =>
  checkExercise({ exercise: exercise(id), source, sandbox, expected: async (cases) => expectedValues(id, cases), seed });

describe('compareValue', () => {
  it('accepts float32 round-off and refuses a real difference', () => {
    expect(compareValue(0.5, 0.50000003)).toBeNull();
    expect(compareValue([1, 2], new Float64Array([1, 2.00000001]))).toBeNull();
    expect(compareValue(0.5, 0.51)).toBe('the value differs: expected 0.5, got 0.51');
    expect(compareValue([0.1, 0.2, 0.3], [0.1, 0.2, 0.31])).toBe('element 2 differs: expected 0.3, got 0.31');
    expect(compareValue([[1, 2], [3, 4]], [[1, 2], [3, 5]])).toBe('row 1, element 1 differs: expected 4, got 5');
  });

  it('names a wrong type, a wrong length, NaN and a missing return', () => {
    expect(compareValue([1, 2, 3], [1, 2])).toBe('expected an array of 3 numbers, got an array of 2');
    expect(compareValue([1, 2, 3], 6)).toBe('expected an array of 3 numbers, got a number');
    expect(compareValue(1, [1])).toBe('expected a number, got an array of 1');
    expect(compareValue(1, '1')).toBe('expected a number, got a string');
    expect(compareValue(1, undefined)).toBe('expected a number, got undefined (did the function return?)');
    expect(compareValue([1, 2], [1, NaN])).toMatch(/^element 1: got NaN/);
    expect(compareValue(1, Infinity)).toBe('got Infinity');
    expect(compareValue([[1]], [[1, 2]])).toBe('row 0: expected an array of 1 numbers, got an array of 2');
  });

  it('formats values short and readable', () => {
    expect(formatValue([0.123456789, -2, [1, 2]])).toBe('[0.123457, -2, [1, 2]]');
    expect(formatValue('hi')).toBe('"hi"');
    expect(formatValue(undefined)).toBe('undefined');
    expect(formatValue(new Array(500).fill(1)).length).toBeLessThanOrEqual(400);
  });
});

describe('checkExercise', () => {
  it('passes a correct solution on 20 cases and says so', async () => {
    const result = await run('gae', exercise('gae').solution);
    expect(result).toEqual({ passed: true, total: 20, seed: 11 });
    expect(describeResult(result, exercise('gae')).summary).toBe('All 20 cases passed.');
    expect(resultLine(result, 'gae')).toBe('passed');
  });

  it('reports the first failing case with its inputs, the expected and the received value', async () => {
    const wrong = 'function gae(rewards, values, gamma, lam) {\n  return rewards.map((r, t) => r + gamma * values[t + 1] - values[t]);\n}';
    const result = await run('gae', wrong);
    expect(result.passed).toBe(false);
    const text = describeResult(result, exercise('gae'));
    expect(text.summary).toMatch(/^Case \d+ of 20 failed: element \d+ differs: expected -?[\d.]+, got -?[\d.]+\.$/);
    expect(text.inputs?.map((l) => l.split(' = ')[0])).toEqual(['rewards', 'values', 'gamma', 'lam']);
    expect(text.expected).toMatch(/^\[/);
    expect(text.received).toMatch(/^\[/);
    // The inputs shown are the failing case's own.
    const failed = (result as Extract<CheckResult, { failed: unknown }>).failed;
    expect(failed.inputs).toEqual(drawCases(exercise('gae'), 11)[failed.index]);
    // δ_t alone is a usual mistake: the hint names it.
    expect(text.hint).toMatch(/^Those are the one-step TD errors δ_t alone: the recursion is missing/);
  });

  it('starts every check with the exercise’s own first case, then the seed’s', () => {
    for (const id of ['gae', 'dpo-loss', 'discounted-returns']) {
      expect(drawCases(exercise(id), 1)[0]).toEqual(drawCases(exercise(id), 2)[0]);
      expect(drawCases(exercise(id), 1).slice(1)).not.toEqual(drawCases(exercise(id), 2).slice(1));
      expect(drawCases(exercise(id), 1)).toHaveLength(20);
    }
  });

  it('names the usual mistakes by the value they give, and gives no hint for other wrong values', async () => {
    const forward = 'function discountedReturns(rewards, gamma) {\n  let G = 0;\n  return rewards.map((r) => (G = r + gamma * G));\n}';
    expect(describeResult(await run('discounted-returns', forward), exercise('discounted-returns')).hint).toMatch(/forward loop/);
    const undiscounted = 'function discountedReturns(rewards) {\n  return rewards.map((_, t) => rewards.slice(t).reduce((a, b) => a + b, 0));\n}';
    expect(describeResult(await run('discounted-returns', undiscounted), exercise('discounted-returns')).hint).toMatch(/without discounting/);
    const swapped =
      'function ppoPolicyLoss(n, o, a, c) {\n  let s = 0;\n  for (let t = 0; t < n.length; t++) {\n    const r = Math.exp(n[t] - o[t]);\n    const k = Math.min(Math.max(r, 1 - c), 1 + c);\n    s += Math.min(-a[t] * r, -a[t] * k);\n  }\n  return s / n.length;\n}';
    expect(describeResult(await run('clipped-surrogate', swapped), exercise('clipped-surrogate')).hint).toMatch(/PPO keeps the pessimistic one/);
    const other = 'function discountedReturns(rewards) {\n  return rewards.map(() => 7);\n}';
    expect(describeResult(await run('discounted-returns', other), exercise('discounted-returns')).hint).toBeUndefined();
  });

  it('every exercise names its usual mistakes, and each is a real mistake: wrong on most cases, its hint shown for it', async () => {
    for (const e of exercises) {
      expect(e.mistakes?.length ?? 0, e.id).toBeGreaterThanOrEqual(2);
      const cases = [1, 2, 3].flatMap((seed) => drawCases(e, seed));
      const expected = expectedValues(e.id, cases);
      for (const mistake of e.mistakes ?? []) {
        const wrongOn = cases.filter((inputs, i) => compareValue(expected[i], (mistake.wrong as (...args: unknown[]) => unknown)(...structuredClone(inputs)), (e as Exercise).tolerance ?? DEFAULT_TOLERANCE) !== null);
        expect(wrongOn.length / cases.length, `${e.id}: ${mistake.hint}`).toBeGreaterThan(0.3);
      }
    }
    const populationStd =
      'function grpoAdvantages(rewards, G) {\n  const out = [];\n  for (let s = 0; s < rewards.length; s += G) {\n    const g = rewards.slice(s, s + G);\n    const m = g.reduce((a, r) => a + r, 0) / G;\n    const sd = Math.sqrt(g.reduce((a, r) => a + (r - m) ** 2, 0) / G);\n    for (const r of g) out.push((r - m) / (sd + 1e-4));\n  }\n  return out;\n}';
    expect(describeResult(await run('grpo-advantages', populationStd), exercise('grpo-advantages')).hint).toMatch(/G − 1/);
    const k1 = 'function k3(logps, refLogps) {\n  return logps.map((lp, t) => lp - refLogps[t]);\n}';
    expect(describeResult(await run('k3-kl', k1), exercise('k3-kl')).hint).toMatch(/^That is k1/);
  });

  it('names the line of a throw, a syntax error, a missing function and a wrong shape', async () => {
    const thrown = await run('dpo-loss', 'function dpoLoss(a, b, c, d, beta) {\n  return a.map((x) => x.y.z);\n}');
    expect(describeResult(thrown, exercise('dpo-loss')).summary).toMatch(/^Case 1 of 20 failed: your function threw: line 2: TypeError: /);
    expect(describeResult(thrown, exercise('dpo-loss')).received).toBe('(nothing: it did not return)');
    const syntax = await run('dpo-loss', 'function dpoLoss(a) {\n  return (;\n}');
    expect(describeResult(syntax, exercise('dpo-loss')).summary).toMatch(/^Your code did not load: line 2: SyntaxError/);
    const missing = await run('dpo-loss', 'function dpo_loss() { return 0; }');
    expect(describeResult(missing, exercise('dpo-loss')).summary).toBe(
      'Your code did not load: the code must define a function named dpoLoss (function dpoLoss(policyChosen, policyRejected, refChosen, refRejected, beta)).',
    );
    const shape = await run('grpo-advantages', 'function grpoAdvantages(rewards) { return rewards.slice(1); }');
    expect(describeResult(shape, exercise('grpo-advantages')).summary).toMatch(/expected an array of \d+ numbers, got an array of \d+/);
    const nan = await run('grpo-advantages', 'function grpoAdvantages(rewards) { return rewards.map(() => NaN); }');
    expect(describeResult(nan, exercise('grpo-advantages')).summary).toMatch(/element 0: got NaN/);
  });

  it('stops an infinite loop with a message saying so', async () => {
    const started = Date.now();
    const result = await checkExercise({
      exercise: exercise('gae'),
      source: 'function gae() { while (true) {} }',
      sandbox,
      expected: async (cases) => expectedValues('gae', cases),
      seed: 1,
      timeoutMs: 300,
    });
    expect(describeResult(result, exercise('gae')).summary).toBe('Case 1 of 20 failed: stopped after 300 ms: the code did not return (an infinite loop?).');
    expect(Date.now() - started).toBeLessThan(5000);
    // The sandbox recovers for the next check.
    expect((await run('gae', exercise('gae').solution)).passed).toBe(true);
  });

  it('refuses code longer than it checks, before running it', async () => {
    const result = await run('gae', `${' '.repeat(20_001)}function gae() {}`);
    expect(describeResult(result, exercise('gae')).summary).toMatch(/^Your code did not load: the code is 20\d+ characters long/);
  });
});

// Near-misses of each formula a reader might write: each must fail, or the checker could not tell them apart.
const NEAR_MISSES: [string, string][] = [
  ['grpo-advantages', 'function grpoAdvantages(r, G) { const out = []; for (let s = 0; s < r.length; s += G) { const g = r.slice(s, s + G); const m = g.reduce((a, x) => a + x, 0) / G; const sd = Math.sqrt(g.reduce((a, x) => a + (x - m) ** 2, 0) / G); for (const x of g) out.push((x - m) / (sd + 1e-4)); } return out; }'],
  ['gae', 'function gae(r, v, g, l) { const A = []; let n = 0; for (let t = r.length - 1; t >= 0; t--) { const next = t === r.length - 1 ? 0 : v[t + 1]; n = r[t] + g * next - v[t] + g * l * n; A[t] = n; } return A; }'],
  ['dpo-loss', 'function dpoLoss(pc, pr, rc, rr, b) { let s = 0; for (let i = 0; i < pc.length; i++) { const m = b * ((pc[i] - rc[i]) - (pr[i] - rr[i])); s += Math.log1p(Math.exp(-m)); } return s; }'],
  ['clipped-surrogate', 'function ppoPolicyLoss(n, o, A, c) { let s = 0; for (let t = 0; t < n.length; t++) s += -A[t] * Math.exp(n[t] - o[t]); return s / n.length; }'],
  ['loss-aggregation', 'function aggregateLoss(A, mask, type) { const len = mask.map((r) => r.reduce((a, m) => a + m, 0)); const sum = A.reduce((a, x, i) => a - x * len[i], 0); return sum / len.reduce((a, n) => a + n, 0); }'],
  ['lora-forward', 'function loraForward(W0, A, B, x, alpha) { const mv = (M, v) => M.map((row) => row.reduce((s, m, j) => s + m * v[j], 0)); const up = mv(B, mv(A, x)); return mv(W0, x).map((h, i) => h + alpha * up[i]); }'],
];

describe.each(NEAR_MISSES)('a near-miss of %s', (id, source) => {
  it('fails', async () => {
    expect((await run(id, source)).passed).toBe(false);
  });
});

describe('the references', () => {
  it('agree with values worked by hand', () => {
    // G = 4, rewards (0, 1, 0, 0): mean 0.25, unbiased std 0.5, so A = (r − 0.25) / 0.5001.
    const [adv] = expectedValues('grpo-advantages', [[[0, 1, 0, 0], 4]]) as number[][];
    adv.forEach((a, i) => expect(a).toBeCloseTo(([0, 1, 0, 0][i] - 0.25) / 0.5001, 5));
    // γ = 0.9, λ = 1, V = 0: the returns of (0, 0, 1) are (0.81, 0.9, 1).
    const [returns] = expectedValues('discounted-returns', [[[0, 0, 1], 0.9]]) as number[][];
    expect(returns.map((r) => Number(r.toFixed(5)))).toEqual([0.81, 0.9, 1]);
    // One pair with margin β·z = 0.1 × 10 = 1: −log σ(1) = 0.313262.
    const [loss] = expectedValues('dpo-loss', [[[-10], [-20], [-20], [-20], 0.1]]) as number[];
    expect(loss).toBeCloseTo(0.313262, 5);
    // The chapter's k3 token: policy 0.5, reference 0.4, estimate 0.8 − log 0.8 − 1.
    const [k3] = expectedValues('k3-kl', [[[Math.log(0.5)], [Math.log(0.4)]]]) as number[][];
    expect(k3[0]).toBeCloseTo(0.8 - Math.log(0.8) - 1, 5);
  });
});
