import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { expectPrinted } from './printed-numbers';

// Chapter 1's hand-worked shop episode, the empty-group probability and the baseline example, recomputed with the
// core: returns are GAE with λ = 1 and a zero critic, advantages are GRPO's with scale_rewards='none'. (The real
// episode and the agent lab's figures are checked in agentic-rl-episode.test.ts.)
const source = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const returns = (rewards: number[], gamma: number) => rl.gae({ rewards, values: rewards.map(() => 0), gamma, lam: 1, nextValue: 0, nextDone: 1 }).returns;

describe('chapter 1: returns by hand', () => {
  it('the shop episode, discounted and not', () => {
    const G = returns([0, -0.1, 0, 1], 0.9);
    expectPrinted(source, '&= 0.639 .', [G[0]]);
    expectPrinted(source, '$G_3 = 1$, $G_2 = 0 + 0.9 \\times 1 = 0.9$, $G_1 = -0.1 + 0.9 \\times 0.9 = 0.71$, and $G_0 = 0 + 0.9 \\times 0.71 = 0.639$', [
      3, G[3], 2, _, _, _, G[2], 1, _, _, _, G[1], 0, _, _, _, G[0],
    ]);
    const clean = returns([0, 0, 1], 0.9);
    expectPrinted(source, 'return $G_0 = 0.9^2 = 0.81$', [0, _, _, clean[0]]);
    expectPrinted(source, 'With $\\gamma = 1$ the two returns are $0.9$ and $1.0$', [1, returns([0, -0.1, 0, 1], 1)[0], returns([0, 0, 1], 1)[0]]);
    const undiscounted = returns([0, -0.1, 0, 1], 1);
    expectPrinted(source, 'The returns-to-go are $G_0 = 0.9$, $G_1 = 0.9$, $G_2 = 1$ and $G_3 = 1$', [0, undiscounted[0], 1, undiscounted[1], 2, undiscounted[2], 3, undiscounted[3]]);
  });

  it('an empty group is likely when success is rare', () => {
    expectPrinted(source, '(1 - 0.05)^8 = 0.95^8 \\approx 0.66', [1, 0.05, 8, 0.95, 8, 0.95 ** 8]);
  });

  it('a group baseline keeps the sloppy success positive but smaller', () => {
    const A = rl.grpoAdvantages({ rewards: [1, 0.9, 1, 0], numGenerations: 4, scaleRewards: 'none' }).advantages;
    expectPrinted(source, 'Their mean is $0.725$, so the advantages are $(0.275, 0.175, 0.275, -0.725)$', [1 - A[0], ...A]);
  });
});
