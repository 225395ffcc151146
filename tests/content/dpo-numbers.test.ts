import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { createLabTask } from '@/lib/train/lab-setup';
import { expectPrinted } from './printed-numbers';

// Chapter 5's worked pair and its variants, recomputed with the course's DPO loss (lib/rl/dpo.ts through the numeric
// face: losses, implicit rewards, and gradients by autodiff). The weight w(m) = −dℓ/dm is −(dℓ/dz)/β, and dℓ/dz is
// the gradient with respect to the chosen completion's log-probability.
const source = fs.readFileSync('content/chapters/05-dpo.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const pair = { chosenLogps: [-1.41], rejectedLogps: [-3.61], refChosenLogps: [-1.91], refRejectedLogps: [-2.11] };
const sigmoid = (u: number) => 1 / (1 + Math.exp(-u));

function dpo(extra: Partial<Parameters<typeof rl.dpoLoss>[0]> = {}, p = pair) {
  const beta = extra.beta ?? 0.1;
  const out = rl.dpoLoss({ ...p, beta, ...extra });
  return { ...out, weight: -out.gradChosen[0] / beta };
}

describe('chapter 5: the optimal policy and the implicit reward', () => {
  const optimal = (beta: number) => {
    const w = [0.5 * Math.exp(1 / beta), 0.5];
    const Z = w[0] + w[1];
    return { pi: w.map((v) => v / Z), Z };
  };

  it('reweights the reference by exp(r/β)', () => {
    expectPrinted(source, 'so $\\pi^{*} = (0.731, 0.269)$', optimal(1).pi);
    expectPrinted(source, 'With $\\beta = 0.5$ the exponent doubles and $\\pi^{*} = (0.881, 0.119)$; with $\\beta = 0.1$ it is $(0.99995, 0.00005)$', [0.5, ...optimal(0.5).pi, 0.1, ...optimal(0.1).pi]);
  });

  it('recovers the rewards up to β log Z', () => {
    const { pi, Z } = optimal(0.5);
    const implicit = pi.map((p) => 0.5 * Math.log(p / 0.5));
    expectPrinted(source, 'The implicit rewards are $0.5 \\log(0.881 / 0.5) = 0.283$ and $0.5 \\log(0.119 / 0.5) = -0.717$, and $\\beta \\log Z = 0.5 \\log(0.5 e^{2} + 0.5) = 0.717$', [
      0.5, pi[0], 0.5, implicit[0], 0.5, pi[1], 0.5, implicit[1], 0.5, 0.5, 2, 0.5, 0.5 * Math.log(Z),
    ]);
    expect(implicit[0] - implicit[1]).toBeCloseTo(1, 12);
  });
});

describe('chapter 5: the worked pair', () => {
  it('starts at log 2 and reaches the printed loss, rewards and weight', () => {
    const start = dpo({}, { ...pair, chosenLogps: [-1.91], rejectedLogps: [-2.11] });
    expectPrinted(source, 'the loss is $-\\log \\sigma(0) = \\log 2 \\approx 0.693$', [0, 2, start.loss]);
    const out = dpo();
    const z = (-1.41 + 1.91) - (-3.61 + 2.11);
    expectPrinted(source, 'z = 0.5 - (-1.5) = 2.0', [(-1.41 + 1.91), -3.61 + 2.11, z]);
    expectPrinted(source, 'The implicit rewards are $\\hat{r}_w = 0.05$ and $\\hat{r}_l = -0.15$, the margin is $m = 0.2$', [out.chosenRewards[0], out.rejectedRewards[0], out.chosenRewards[0] - out.rejectedRewards[0]]);
    expectPrinted(source, '-\\log \\sigma(0.2) = \\log\\big(1 + e^{-0.2}\\big) = \\log 1.8187 \\approx 0.598', [0.2, 1, -0.2, 1 + Math.exp(-0.2), out.loss]);
    expectPrinted(source, 'For the worked pair, with margin $0.2$, the weight is $\\sigma(-0.2) = 0.450$', [0.2, -0.2, out.weight]);
    for (const label of ['`rewards/chosen`: the mean of $\\hat{r}_w = \\beta \\Delta_w$. For the pair above, $0.05$', '`rewards/margins`: the mean of $\\hat{r}_w - \\hat{r}_l$. Here $0.2$']) expect(source).toContain(label);
  });

  it('needs a log-ratio difference of 30 nats for a loss of 0.05', () => {
    const far = dpo({}, { ...pair, chosenLogps: [-1.91 + 30], rejectedLogps: [-2.11] });
    expectPrinted(source, 'to bring the loss down to $0.05$ (a margin of 3) this pair would need a log-ratio difference of 30 nats', [far.loss, 3, 30]);
  });

  it('the quiz: z = 3 at β = 0.1', () => {
    const quiz = dpo({}, { chosenLogps: [1], rejectedLogps: [-2], refChosenLogps: [0], refRejectedLogps: [0] });
    const forgotBeta = dpo({ beta: 1 }, { chosenLogps: [1], rejectedLogps: [-2], refChosenLogps: [0], refRejectedLogps: [0] });
    expectPrinted(source, 'choices={["About 0.554", "About 0.049", "About 0.693", "About 0.426"]}', [quiz.loss, forgotBeta.loss, Math.log(2), quiz.weight]);
  });

  it('confident mistakes weigh most', () => {
    const margin = (m: number) => dpo({}, { chosenLogps: [m / 0.1], rejectedLogps: [0], refChosenLogps: [0], refRejectedLogps: [0] }).weight;
    expectPrinted(source, '$\\hat{r}_w - \\hat{r}_l = -0.5$, gets $\\sigma(0.5) = 0.622$; a pair ranked correctly by two units gets $\\sigma(-2) = 0.119$', [-0.5, 0.5, margin(-0.5), -2, margin(2)]);
  });
});

describe('chapter 5: the variants', () => {
  it('conservative DPO (the lab’s sigmoid with label smoothing) and its stopping margin', () => {
    const out = dpo({ labelSmoothing: 0.1 });
    expectPrinted(source, 'the loss is $0.9 \\times 0.598 + 0.1 \\times 0.798 = 0.618$ and the weight is $0.9 \\times 0.450 - 0.1 \\times 0.550 = 0.350$', [
      0.9, dpo().loss, 0.1, -Math.log(sigmoid(-0.2)), out.loss, 0.9, dpo().weight, 0.1, sigmoid(0.2), out.weight,
    ]);
    // Zero weight at m = log 9: z = 10 log 9 at β = 0.1.
    const atStop = dpo({ labelSmoothing: 0.1 }, { chosenLogps: [10 * Math.log(9)], rejectedLogps: [0], refChosenLogps: [0], refRejectedLogps: [0] });
    expect(atStop.weight).toBeCloseTo(0, 5);
    expectPrinted(source, 'With $\\nu = 0.1$ that margin is $\\log 9 \\approx 2.2$', [0.1, 9, Math.log(9)]);
  });

  it('robust DPO', () => {
    const out = dpo({ lossType: 'robust', labelSmoothing: 0.1 });
    expectPrinted(source, 'the loss is $(0.9 \\times 0.598 - 0.1 \\times 0.798) / 0.8 = 0.573$ and the weight $0.575$', [0.9, _, 0.1, _, 0.8, out.loss, out.weight]);
  });

  it('IPO on the worked pair, with the lab’s token counts', () => {
    const task = createLabTask();
    const lengths = ['9,14 #### 149', '10,14 #### 140'].map((c) => task.tokenizer.encode(c).length + 1);
    expect(source).toContain('the chosen completion is `9,14 #### 149` (correct) and the rejected one is `10,14 #### 140`');
    const out = dpo({ lossType: 'ipo', chosenLengths: [lengths[0]], rejectedLengths: [lengths[1]] });
    const zPerToken = 0.5 / lengths[0] - -1.5 / lengths[1];
    expectPrinted(source, 'the chosen completion is 14 tokens long and the rejected one 15', lengths);
    expectPrinted(source, 'so the per-token $z$ is $0.5 / 14 - (-1.5 / 15) = 0.136$ and the IPO loss is $(0.136 - 5)^{2} \\approx 23.7$', [0.5, _, -1.5, _, zPerToken, zPerToken, 1 / (2 * 0.1), 2, out.loss]);
    expectPrinted(source, 'by a factor of $e^{5} \\approx 148$', [5, Math.exp(5)]);
  });

  it('hinge on the worked pair', () => {
    const out = dpo({ lossType: 'hinge' });
    expectPrinted(source, 'For the worked pair, $\\beta z = 0.2$ and the loss is $0.8$', [0.1 * 2, out.loss]);
  });

  it('both log-probabilities fall: a healthy loss hides a less likely chosen completion', () => {
    const out = dpo({}, { ...pair, chosenLogps: [-5.91], rejectedLogps: [-32.11] });
    expectPrinted(source, 'Then $\\Delta_w = -4$, $\\Delta_l = -30$, $z = 26$, the margin is $2.6$, `rewards/accuracies` is 1 and the loss is a healthy $0.072$', [
      out.chosenRewards[0] / 0.1, out.rejectedRewards[0] / 0.1, (out.chosenRewards[0] - out.rejectedRewards[0]) / 0.1, out.chosenRewards[0] - out.rejectedRewards[0], 1, out.loss,
    ]);
    expectPrinted(source, '$e^{4} \\approx 55$ times *less* likely', [4, Math.exp(4)]);
    expectPrinted(source, '`rewards/chosen` would be $-0.4$', [out.chosenRewards[0]]);
  });
});
