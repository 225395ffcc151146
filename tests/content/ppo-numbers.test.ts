import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { completionLogprobs, tokenEntropy } from '@/lib/rl/logprobs';
import { maskedMean, maskedVar, maskedWhiten } from '@/lib/rl/ppo';
import { ppoSchema } from '@/lib/train/ppo-config';
import { expectPrinted } from './printed-numbers';

// Chapter 4 prints worked examples a reader can redo; each is recomputed here with the course's core (lib/rl, the
// code the lab and the widgets run) and compared with the digits the chapter prints.
const source = fs.readFileSync('content/chapters/04-ppo.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const softmax = (z: number[]) => {
  const e = z.map(Math.exp);
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
};

describe('chapter 4: the policy gradient of a softmax', () => {
  it('one REINFORCE step on the two-action policy', () => {
    const theta = [Math.log(0.8), Math.log(0.2)];
    // ∇_θ log π(action 2) by autodiff through the core's log-softmax.
    const grad = tf.tidy(() =>
      Array.from(
        tf
          .grad((logits: tf.Tensor) => completionLogprobs(logits.reshape([1, 1, 2]) as tf.Tensor3D, tf.tensor2d([[1]], [1, 1], 'int32')).sum())(tf.tensor1d(theta))
          .dataSync(),
      ),
    );
    const eta = 0.5;
    const step = grad.map((g) => eta * 1 * g);
    const after = softmax(theta.map((t, i) => t + step[i]));
    expectPrinted(source, '$1 \\times (e_2 - \\pi) = (-0.8,\\, 0.8)$', [1, _, grad[0], grad[1]]);
    expectPrinted(source, 'learning rate $\\eta = 0.5$ moves the logits by $(-0.4,\\, 0.4)$ and raises $\\pi(2)$ from $0.20$ to about $0.36$', [eta, step[0], step[1], _, 0.2, after[1]]);
  });

  it('REINFORCE variance, and the baseline that cuts it', () => {
    const p = [0.8, 0.2];
    const estimates = [10 * (0 - 0.2), 11 * (1 - 0.2)];
    const mean = p[0] * estimates[0] + p[1] * estimates[1];
    const variance = p[0] * (estimates[0] - mean) ** 2 + p[1] * (estimates[1] - mean) ** 2;
    expectPrinted(source, '$10 \\times (0 - 0.2) = -2$', [_, _, _, estimates[0]]);
    expectPrinted(source, '$11 \\times (1 - 0.2) = 8.8$', [_, _, _, estimates[1]]);
    expectPrinted(source, 'the variance of the estimate is $0.8 \\times (-2.16)^2 + 0.2 \\times 8.64^2 \\approx 18.7$, a standard deviation of 4.3 around a mean of 0.16', [_, estimates[0] - mean, _, _, estimates[1] - mean, _, variance, Math.sqrt(variance), mean]);
    const b = p[0] * 10 + p[1] * 11;
    const withBaseline = [(10 - b) * -0.2, (11 - b) * 0.8];
    const meanB = p[0] * withBaseline[0] + p[1] * withBaseline[1];
    const varB = p[0] * (withBaseline[0] - meanB) ** 2 + p[1] * (withBaseline[1] - meanB) ** 2;
    expectPrinted(source, '$b = 0.8 \\times 10 + 0.2 \\times 11 = 10.2$', [_, _, _, _, b]);
    expectPrinted(source, '$-0.2 \\times (-0.2) = 0.04$ and $0.8 \\times 0.8 = 0.64$', [10 - b, _, withBaseline[0], 11 - b, _, withBaseline[1]]);
    expectPrinted(source, 'the variance has fallen from about 18.7 to $0.8 \\times 0.12^2 + 0.2 \\times 0.48^2 \\approx 0.058$, more than three hundred times smaller', [variance, _, Math.abs(withBaseline[0] - meanB), _, _, withBaseline[1] - meanB, _, varB]);
    expect(meanB).toBeCloseTo(mean, 12);
    expect(variance / varB).toBeGreaterThan(300);
  });

  it('importance sampling: unbiased, and its variance', () => {
    const w = [0.8 / 0.5, 0.2 / 0.5];
    const mean = 0.5 * w[0] * 1 + 0.5 * w[1] * 0;
    const variance = 0.5 * (w[0] - mean) ** 2 + 0.5 * (0 - mean) ** 2;
    expectPrinted(source, 'action 1 has weight $0.8 / 0.5 = 1.6$ and action 2 has weight $0.2 / 0.5 = 0.4$', [1, _, _, w[0], 2, _, _, w[1]]);
    expectPrinted(source, 'the weighted estimate has variance $0.64$, four times the $0.16$ we would get', [variance, 0.8 * 0.2]);
    const far = 0.99 / 0.01;
    const farSd = Math.sqrt(0.01 * far ** 2 - 0.99 ** 2);
    expectPrinted(source, 'action 1 carries a weight of 99', [1, far]);
    expect(Math.round(farSd)).toBe(10);
  });
});

describe('chapter 4: the clip, the critic and the logs', () => {
  const policy = (ratio: number, advantage: number) =>
    rl.ppoPolicyLoss({ newLogprobs: [[Math.log(ratio)]], oldLogprobs: [[0]], advantages: [[advantage]], paddingMask: [[0]], cliprange: 0.2 });

  it('six cases of the clipped surrogate, as the table prints them', () => {
    const cell = (x: number) => x.toFixed(1).replace('-', '−');
    for (const ratio of [0.7, 1.0, 1.3]) {
      const cells = [2, -2].map((a) => {
        const out = policy(ratio, a);
        const clipped = Math.min(Math.max(ratio, 0.8), 1.2) * a;
        const flows = out.grad[0][0] !== 0 ? 'flows' : 'zero';
        return `${cell(ratio * a)} vs ${cell(clipped)} | ${cell(-out.pgLoss)}, ${flows}`;
      });
      expect(source).toContain(`| ${ratio.toFixed(1)} | ${cells[0]} | ${cells[1]} |`);
    }
  });

  it('the GAE example by hand, its limits, and the missing mask', () => {
    const base = { rewards: [0, 0, 1, 0], values: [0.5, 0.6, 0.8, 0.3], dones: [0, 0, 0, 1], nextValue: 0.4, nextDone: 0, gamma: 0.9 };
    const { advantages: A, returns: R } = rl.gae({ ...base, lam: 0.5 });
    const delta = rl.gae({ ...base, lam: 0 }).advantages;
    const mc = rl.gae({ ...base, lam: 1 }).advantages;
    expectPrinted(source, '\\delta_3 &= 0 + 0.9 \\times 0.4 - 0.3 = 0.06', [3, _, _, _, _, delta[3]]);
    expectPrinted(source, '\\delta_2 &= 1 + 0 - 0.8 = 0.20', [2, _, _, _, delta[2]]);
    expectPrinted(source, '\\delta_1 &= 0 + 0.9 \\times 0.8 - 0.6 = 0.12', [1, _, _, _, _, delta[1]]);
    expectPrinted(source, '\\delta_0 &= 0 + 0.9 \\times 0.6 - 0.5 = 0.04', [0, _, _, _, _, delta[0]]);
    expectPrinted(source, '\\hat{A}_1 &= 0.12 + 0.45 \\times 0.20 = 0.21', [1, _, 0.9 * 0.5, _, A[1]]);
    expectPrinted(source, '\\hat{A}_0 &= 0.04 + 0.45 \\times 0.21 = 0.1345', [0, _, _, _, A[0]]);
    expectPrinted(source, '$\\hat{R} = \\hat{A} + V = (0.6345,\\; 0.81,\\; 1.0,\\; 0.36)$', R);
    expectPrinted(source, 'With $\\lambda = 0$ the advantages are the residuals, $(0.04, 0.12, 0.20, 0.06)$', [0, ...delta]);
    expectPrinted(source, 'With $\\lambda = 1$ they are $(0.31, 0.30, 0.20, 0.06)$', [1, ...mc]);
    expectPrinted(source, '$0.9^2 \\times 1 = 0.81$, minus $V(s_0) = 0.5$, is $0.31$', [_, _, _, 0.81, 0, 0.5, mc[0]]);
    // The pitfall: the same rollout with the boundary forgotten.
    const unmasked = rl.gae({ ...base, dones: [0, 0, 0, 0], lam: 0.5 });
    expectPrinted(source, '$\\delta_2$ becomes $1 + 0.9 \\times 0.3 - 0.8 = 0.47$, and $\\hat{A}_2 = 0.47 + 0.45 \\times 0.06 \\approx 0.50$ instead of $0.20$', [
      2, _, _, _, _, unmasked.advantages[2] - 0.45 * A[3], 2, _, _, _, unmasked.advantages[2], A[2],
    ]);
  });

  it('the GAE quiz: lambda 0 trusts the critic, lambda 1 the return', () => {
    const args = { rewards: [0, 0, 1], values: [0.5, 0.5, 0.5], gamma: 1, nextValue: 0, nextDone: 1 };
    expect(rl.gae({ ...args, lam: 0 }).advantages[0]).toBeCloseTo(0, 6);
    expect(rl.gae({ ...args, lam: 1 }).advantages[0]).toBeCloseTo(0.5, 6);
    expect(source).toContain('choices={["0 with lambda = 0, and 0.5 with lambda = 1"');
  });

  it('whitening the four advantages, as TRL does', () => {
    const { advantages } = rl.gae({ rewards: [0, 0, 1, 0], values: [0.5, 0.6, 0.8, 0.3], dones: [0, 0, 0, 1], nextValue: 0.4, gamma: 0.9, lam: 0.5 });
    const [mean, sd, white] = tf.tidy(() => {
      const a = tf.tensor1d(advantages);
      const m = tf.ones([4]);
      return [maskedMean(a, m).dataSync()[0], Math.sqrt(maskedVar(a, m).dataSync()[0]), Array.from(maskedWhiten(a, m).dataSync())];
    });
    expectPrinted(source, 'Their mean is $0.151$ and their standard deviation $0.069$, so whitened they become about $(-0.24, 0.85, 0.70, -1.31)$', [mean, sd, ...white]);
  });

  it('value clipping: inside the band, past it, and the wrong way', () => {
    const value = (vpred: number) => rl.ppoValueLoss({ vpred: [[vpred]], values: [[0.5]], returns: [[1]], validMask: [[1]], cliprangeValue: 0.2 });
    const inside = value(0.6);
    const past = value(0.9);
    const wrong = value(0.2);
    expectPrinted(source, 'If the critic now predicts $0.6$, it is inside the band, both errors are $0.16$', [0.6, 2 * inside.vfLoss]);
    expect(inside.grad[0][0]).not.toBe(0);
    expectPrinted(source, 'the clipped prediction is $0.7$ and its error $0.09$ beats the unclipped $0.01$', [0.7, 2 * past.vfLoss, (0.9 - 1) ** 2]);
    expect(Math.abs(past.grad[0][0])).toBe(0);
    expectPrinted(source, 'the unclipped error $0.64$ is the larger', [2 * wrong.vfLoss]);
    expect(wrong.grad[0][0]).not.toBe(0);
  });

  it('two entropies', () => {
    const [uniform, peaked] = tf.tidy(() =>
      Array.from(tokenEntropy(tf.tensor3d([[[0, 0, 0, 0], [0.97, 0.01, 0.01, 0.01].map(Math.log)]])).dataSync()),
    );
    expectPrinted(source, '$\\ln 4 \\approx 1.386$ for a uniform choice among four moves, $0.168$ for $(0.97, 0.01, 0.01, 0.01)$', [4, uniform, peaked, _, _, _, _]);
  });

  it('the lab’s update: 16 gradient steps of 128 transitions', () => {
    const transitions = ppoSchema.num_envs.default * ppoSchema.num_steps.default;
    expect(source).toContain(`The lab's defaults, ${transitions} transitions per rollout with ${ppoSchema.num_ppo_epochs.default} epochs of ${ppoSchema.num_mini_batches.default} minibatches, mean ${ppoSchema.num_ppo_epochs.default * ppoSchema.num_mini_batches.default} gradient steps per rollout, each on ${transitions / ppoSchema.num_mini_batches.default} transitions`);
  });

  it('the effective horizon of GAE', () => {
    expectPrinted(source, 'about 17 for the common $\\gamma = 0.99$, $\\lambda = 0.95$, and 20 for TRL\'s $\\gamma = 1$, $\\lambda = 0.95$', [1 / (1 - 0.99 * 0.95), _, _, 1 / (1 - 0.95), _, _]);
  });
});

describe('chapter 4: PPO for language models', () => {
  it('reward at the last token, KL at every token, and GAE over the three tokens', () => {
    const beta = 0.05;
    const rewards = [0.2, -0.1, 0.3].map((kl, t) => -beta * kl + (t === 2 ? 1 : 0));
    expectPrinted(source, '= (-0.010,\\; 0.005,\\; 0.985)', rewards);
    const lam0 = rl.gae({ rewards, values: [0.6, 0.7, 0.9], gamma: 1, lam: 0, nextValue: 0, nextDone: 1 }).advantages;
    const A = rl.gae({ rewards, values: [0.6, 0.7, 0.9], gamma: 1, lam: 0.95, nextValue: 0, nextDone: 1 }).advantages;
    expectPrinted(source, 'the residuals are $(0.09,\\, 0.205,\\, 0.085)$ and the advantages $(0.361,\\, 0.286,\\, 0.085)$', [...lam0, ...A]);
  });
});
