import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { completionLogprobs } from '@/lib/rl/logprobs';
import { expectPrinted } from './printed-numbers';

// Chapter 4's derivations (issue 32): reward-to-go, and the importance-weighted surrogate against the
// performance-difference identity. Each printed number is recomputed here, the score function by autodiff through
// the course's log-softmax (lib/rl), and compared with the digits the chapter prints.
const source = fs.readFileSync('content/chapters/04-ppo.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** ∇_θ log π(action) for a softmax policy with logits θ, by autodiff through lib/rl's completionLogprobs. */
const score = (theta: number[], action: number): number[] =>
  tf.tidy(() =>
    Array.from(
      tf
        .grad((logits: tf.Tensor) =>
          completionLogprobs(logits.reshape([1, 1, theta.length]) as tf.Tensor3D, tf.tensor2d([[action]], [1, 1], 'int32')).sum(),
        )(tf.tensor1d(theta))
        .dataSync(),
    ),
  );

describe('chapter 4: rewards from the past, in numbers', () => {
  const pi = [0.8, 0.2];
  const theta = pi.map(Math.log);
  const reward = [10, 11];
  // The second logit's score for each action: −0.2 and 0.8.
  const s2 = [score(theta, 0)[1], score(theta, 1)[1]];
  // The four two-step episodes in the order the chapter lists them: (1,1), (1,2), (2,1), (2,2).
  const episodes = [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ].map(([a0, a1]) => {
    const [r0, r1] = [reward[a0], reward[a1]];
    const G0 = r0 + r1;
    const G1 = r1;
    return {
      p: pi[a0] * pi[a1],
      full: G0 * (s2[a0] + s2[a1]),
      rewardToGo: s2[a0] * G0 + s2[a1] * G1,
      past: s2[a1] * r0,
      // The expected reward-to-go of each step as a baseline: V(s_0) = 2 × 10.2, V(s_1) = 10.2.
      baseline: s2[a0] * (G0 - 2 * 10.2) + s2[a1] * (G1 - 10.2),
    };
  });
  const mean = (f: (e: (typeof episodes)[number]) => number) => episodes.reduce((acc, e) => acc + e.p * f(e), 0);
  const variance = (f: (e: (typeof episodes)[number]) => number) => {
    const m = mean(f);
    return mean((e) => (f(e) - m) ** 2);
  };

  it('the score has mean zero', () => {
    expectPrinted(source, 'is $-0.2$ when action 1 is drawn and $0.8$ when action 2 is, so its mean is $0.8 \\times (-0.2) + 0.2 \\times 0.8 = 0$', [s2[0], 1, s2[1], 2, _, _, _, _, pi[0] * s2[0] + pi[1] * s2[1]]);
  });

  it('the dropped past-reward term has mean zero, and both estimators the same mean', () => {
    expectPrinted(source, 'with probabilities $0.64$, $0.16$, $0.16$ and $0.04$, it takes the values $-2$, $8$, $-2.2$ and $8.8$', [...episodes.map((e) => e.p), ...episodes.map((e) => e.past)]);
    expect(mean((e) => e.past)).toBeCloseTo(0, 6);
    const m = mean((e) => e.full);
    expect(mean((e) => e.rewardToGo)).toBeCloseTo(m, 6);
    expect(mean((e) => e.baseline)).toBeCloseTo(m, 6);
    // Twice the one-step mean of the REINFORCE section (0.16).
    expectPrinted(source, 'give the same mean for the second logit, $0.32$', [m]);
    expect(m).toBeCloseTo(2 * 0.16, 6);
  });

  it('the variances: full return, reward-to-go, and reward-to-go minus a baseline', () => {
    const full = variance((e) => e.full);
    const rtg = variance((e) => e.rewardToGo);
    const base = variance((e) => e.baseline);
    expectPrinted(source, 'about 141 with $G_0$ and about 89 with $G_t$', [full, 0, rtg]);
    expectPrinted(source, 'brings it down to about 0.14', [base]);
    expect(full).toBeGreaterThan(rtg);
    expect(rtg).toBeGreaterThan(base);
  });
});

describe('chapter 4: the surrogate and the performance-difference identity', () => {
  it('with one state the importance-weighted surrogate is exact', () => {
    const old = [0.5, 0.5];
    const next = [0.8, 0.2];
    const reward = [1, 0];
    const vOld = old[0] * reward[0] + old[1] * reward[1];
    const aOld = reward.map((r) => r - vOld);
    // The surrogate as PPO computes it: lib/rl's policy loss with the clip out of reach is −mean(ρ A) over the
    // batch; a batch of one sample of each action weights them as the uniform old policy does.
    const { pgLoss } = rl.ppoPolicyLoss({
      newLogprobs: [next.map(Math.log)],
      oldLogprobs: [old.map(Math.log)],
      advantages: [aOld],
      paddingMask: [[0, 0]],
      cliprange: 1e6,
    });
    const surrogate = -pgLoss;
    // The identity: J(θ) − J(θ_old) = E_{a∼π_θ}[A_old(a)], and directly.
    const jNew = next[0] * reward[0] + next[1] * reward[1];
    expect(next[0] * aOld[0] + next[1] * aOld[1]).toBeCloseTo(jNew - vOld, 12);
    expect(surrogate).toBeCloseTo(jNew - vOld, 6);
    expectPrinted(source, '$A_{\\mathrm{old}} = (0.5, -0.5)$, and $0.5 \\times 1.6 \\times 0.5 + 0.5 \\times 0.4 \\times (-0.5) = 0.3$, which is $J(\\theta) - J(\\theta_{\\mathrm{old}}) = 0.8 - 0.5$', [
      aOld[0], aOld[1], old[0], next[0] / old[0], aOld[0], old[1], next[1] / old[1], aOld[1], surrogate, jNew, vOld,
    ]);
  });

  it("TRPO's penalty factor at gamma = 0.99", () => {
    const gamma = 0.99;
    expectPrinted(source, 'for $\\gamma = 0.99$ the factor $4\\gamma / (1 - \\gamma)^2$ is 39,600', [gamma, 4, 1, 2, (4 * gamma) / (1 - gamma) ** 2]);
  });
});

describe('chapter 4: the new quizzes', () => {
  it('has the reward-to-go and surrogate quizzes, each answered by its first choice', () => {
    for (const id of ['ch04-reward-to-go', 'ch04-surrogate-states']) {
      const quiz = new RegExp(`<Quiz id="${id}"[^>]*answer=\\{0\\}`).exec(source);
      expect(quiz, id).not.toBeNull();
    }
  });
});
