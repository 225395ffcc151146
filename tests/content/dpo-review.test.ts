import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { expectPrinted } from './printed-numbers';

// Chapter 5's review additions (issue 32): the token-level view, the likelihood-displacement toy and the DPO family.
// The toy's loss and its gradient with respect to the two log-probabilities come from the course's DPO loss
// (lib/rl/dpo.ts through the numeric face); the chain rule through the softmax is written out here.
const source = fs.readFileSync('content/chapters/05-dpo.mdx', 'utf8');
beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('chapter 5: likelihood displacement on one token', () => {
  const beta = 0.1;
  const U = { w: [1, 0.5], l: [1, 1], z: [0, -1] } as const;
  const keys = ['w', 'l', 'z'] as const;
  const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1];

  function logProbs(h: number[]) {
    const logits = keys.map((k) => dot(U[k], h));
    const lse = Math.log(logits.reduce((s, v) => s + Math.exp(v), 0));
    return Object.fromEntries(keys.map((k, i) => [k, logits[i] - lse])) as Record<(typeof keys)[number], number>;
  }

  const h0 = [0, 0];
  const ref = logProbs(h0);
  const dpoAt = (lp: ReturnType<typeof logProbs>) =>
    rl.dpoLoss({ chosenLogps: [lp.w], rejectedLogps: [lp.l], refChosenLogps: [ref.w], refRejectedLogps: [ref.l], beta });

  // ∇_h ℓ = (dℓ/d log π(w)) ∇_h log π(w) + (dℓ/d log π(l)) ∇_h log π(l), with ∇_h log π(k) = u_k − Σ_j π(j) u_j.
  function gradH(h: number[]) {
    const lp = logProbs(h);
    const out = dpoAt(lp);
    const mean = [0, 1].map((d) => keys.reduce((s, k) => s + Math.exp(lp[k]) * U[k][d], 0));
    return [0, 1].map((d) => out.gradChosen[0] * (U.w[d] - mean[d]) + out.gradRejected[0] * (U.l[d] - mean[d]));
  }

  const g = gradH(h0);
  const norm = Math.hypot(g[0], g[1]);
  const h1 = [h0[0] - (0.5 * g[0]) / norm, h0[1] - (0.5 * g[1]) / norm];
  const before = ref;
  const after = logProbs(h1);
  const loss0 = dpoAt(before).loss;
  const loss1 = dpoAt(after).loss;

  it('the gradient is −βσ(−m)(u_w − u_l): the normaliser cancels', () => {
    const diff = [U.w[0] - U.l[0], U.w[1] - U.l[1]];
    // m = 0 at the start, σ(0) = 1/2.
    expect(g[0]).toBeCloseTo(-beta * 0.5 * diff[0], 6);
    expect(g[1]).toBeCloseTo(-beta * 0.5 * diff[1], 6);
    expectPrinted(source, 'Every descent step moves $h$ along $u_w - u_l = (0, -0.5)$', [diff[0], diff[1]]);
    expectPrinted(source, 'with $u_w \\cdot (u_w - u_l) = -0.25$, while it points towards the third token: $u_{\\tilde{y}} \\cdot (u_w - u_l) = 0.5$', [
      dot(U.w, diff), dot(U.z, diff),
    ]);
    expectPrinted(source, 'and the unembeddings are $u_w = (1, 0.5)$, $u_l = (1, 1)$ and $u_{\\tilde{y}} = (0, -1)$', [...U.w, ...U.l, ...U.z]);
  });

  it('one step of length 0.5 lowers both log-probabilities and the loss', () => {
    expect(h1[0]).toBeCloseTo(0, 12);
    expectPrinted(source, 'Take one step that moves $h$ by $0.5$ in the descent direction, to $h = (0, -0.5)$', [0.5, h1[0], h1[1]]);
    expectPrinted(source, 'Every token has probability $1/3$, log-probability $-1.099$, and the loss is $0.693$', [1, 3, before.w, loss0]);
    expectPrinted(source, '| $\\log \\pi_\\theta(w)$, chosen | $-1.099$ | $-1.360$ |', [before.w, after.w]);
    expectPrinted(source, '| $\\log \\pi_\\theta(l)$, rejected | $-1.099$ | $-1.610$ |', [before.l, after.l]);
    expectPrinted(source, '| $\\pi_\\theta(\\tilde{y})$, in neither | $0.333$ | $0.543$ |', [Math.exp(before.z), Math.exp(after.z)]);
    expectPrinted(source, '| DPO loss, $\\beta = 0.1$ | $0.693$ | $0.681$ |', [beta, loss0, loss1]);
    const z = after.w - before.w - (after.l - before.l);
    const out = dpoAt(after);
    expectPrinted(source, 'Both log-probabilities fell, the rejected one by $0.25$ more, so $z = 0.25$, the margin is $0.025$', [
      before.l - after.l - (before.w - after.w), z, out.chosenRewards[0] - out.rejectedRewards[0],
    ]);
    expect(after.w).toBeLessThan(before.w);
    expect(after.l).toBeLessThan(before.l);
    expect(loss1).toBeLessThan(loss0);
  });
});

describe('chapter 5: the token-level view (Rafailov et al. 2024, §4.1–4.2) on a small token MDP', () => {
  // Two tokens, responses of exactly two tokens, a random per-token reward and reference. Solve the KL-regularised
  // (max-entropy) problem backwards: Q*(s,a) = r(s,a) + β log π_ref(a|s) + V*(s'), V*(s) = β log Σ_a e^{Q*(s,a)/β}.
  const beta = 0.5;
  const A = [0, 1];
  let seed = 7;
  const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const key = (s: number[]) => s.join('');
  const r = new Map<string, number>();
  const piRef = new Map<string, number[]>();
  const states = [[], [0], [1]];
  for (const s of states) {
    const p = rand();
    piRef.set(key(s), [p, 1 - p]);
    for (const a of A) r.set(key([...s, a]), 2 * rand() - 1);
  }
  const V = new Map<string, number>();
  const Q = new Map<string, number>();
  const value = (s: number[]): number => {
    if (s.length === 2) return 0; // terminal
    const k = key(s);
    if (V.has(k)) return V.get(k) as number;
    const qs = A.map((a) => {
      const q = (r.get(key([...s, a])) as number) + beta * Math.log((piRef.get(k) as number[])[a]) + value([...s, a]);
      Q.set(key([...s, a]), q);
      return q;
    });
    const v = beta * Math.log(qs.reduce((acc, q) => acc + Math.exp(q / beta), 0));
    V.set(k, v);
    return v;
  };
  value([]);
  const piStar = (s: number[], a: number) => Math.exp(((Q.get(key([...s, a])) as number) - value(s)) / beta);

  it('β log π*/π_ref per token is the advantage r + V*(s′) − V*(s) (their Eq. 10)', () => {
    for (const s of states) {
      for (const a of A) {
        const lhs = beta * Math.log(piStar(s, a) / (piRef.get(key(s)) as number[])[a]);
        expect(lhs).toBeCloseTo((r.get(key([...s, a])) as number) + value([...s, a]) - value(s), 10);
      }
    }
  });

  it('summed over a response the values telescope to R(y) − V*(s₀), and V*(s₀) = β log Z(x)', () => {
    const responses = [[0, 0], [0, 1], [1, 0], [1, 1]];
    const R = (y: number[]) => (r.get(key([y[0]])) as number) + (r.get(key(y)) as number);
    const refSeq = (y: number[]) => (piRef.get('') as number[])[y[0]] * (piRef.get(key([y[0]])) as number[])[y[1]];
    const implicit = (y: number[]) =>
      beta * Math.log(piStar([], y[0]) / (piRef.get('') as number[])[y[0]]) +
      beta * Math.log(piStar([y[0]], y[1]) / (piRef.get(key([y[0]])) as number[])[y[1]]);
    for (const y of responses) expect(implicit(y)).toBeCloseTo(R(y) - value([]), 10);
    // The bandit closed form of the chapter's first section: π*(y) ∝ π_ref(y) e^{R(y)/β}, with β log Z = V*(s₀).
    const Z = responses.reduce((acc, y) => acc + refSeq(y) * Math.exp(R(y) / beta), 0);
    expect(beta * Math.log(Z)).toBeCloseTo(value([]), 10);
    // So the difference of two responses' implicit rewards, all the DPO loss sees, is the difference of their rewards.
    expect(implicit([0, 1]) - implicit([1, 0])).toBeCloseTo(R([0, 1]) - R([1, 0]), 10);
  });

  it('prints the per-token identity and cites the sections it checks', () => {
    expect(source).toContain('\\beta \\log \\frac{\\pi^{*}(a_t \\mid s_t)}{\\pi_{\\mathrm{ref}}(a_t \\mid s_t)} = r(s_t, a_t) + V^{*}(s_{t+1}) - V^{*}(s_t) .');
    expect(source).toContain('(§4.2, their Eq. 10)');
    expect(source).toContain('(§5.4, Eq. 16)');
  });
});

describe('chapter 5: the new sections carry quizzes and references', () => {
  it('has the quizzes', () => {
    for (const id of ['ch05-token-level-value', 'ch05-family-map', 'ch05-both-logps-fall']) expect(source).toContain(`<Quiz id="${id}"`);
  });

  it('lists the papers it cites', () => {
    for (const ref of ['arXiv:2404.12358', 'arXiv:2410.08847', 'arXiv:2402.01306', 'arXiv:2403.07691', 'arXiv:2405.14734']) {
      expect(source).toContain(ref);
    }
  });

  it('names the TRL v1.13.0 homes of KTO, ORPO and SimPO', () => {
    for (const s of ['`KTOTrainer`, `loss_type=\'kto\'`', '`trl.experimental.orpo.ORPOTrainer`', '`trl.experimental.cpo.CPOTrainer`, `loss_type=\'simpo\'`']) {
      expect(source).toContain(s);
    }
  });
});
