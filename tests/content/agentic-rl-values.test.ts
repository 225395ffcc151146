import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { expectPrinted } from './printed-numbers';

// Chapter 1's values, advantages and TD residual on its two-action example: the Bellman equations by hand, and the
// TD residual by the core's GAE with λ = 0 (which is δ_t itself).
const source = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('chapter 1: values and advantages', () => {
  const gamma = 0.9;
  const pi = [0.5, 0.5];
  const vNext = 2;
  const q = [1, 0 + gamma * vNext];
  const v = pi[0] * q[0] + pi[1] * q[1];
  const advantages = q.map((x) => x - v);

  it('the example’s Q, V and A from the Bellman equations', () => {
    expectPrinted(
      source,
      '$V^\\pi(s\') = 2$, $Q^\\pi(s, a_1) = 1$, $Q^\\pi(s, a_2) = 0 + 0.9 \\times 2 = 1.8$, so $V^\\pi(s) = 1.4$ and the advantages are $A^\\pi(s, a_1) = -0.4$ and $A^\\pi(s, a_2) = 0.4$',
      [vNext, 1, q[0], 2, _, _, _, q[1], v, 1, advantages[0], 2, advantages[1]],
    );
    expect(pi[0] * advantages[0] + pi[1] * advantages[1]).toBeCloseTo(0, 12);
  });

  it('the TD residual of a_2 is its advantage (GAE with λ = 0)', () => {
    const { advantages: delta } = rl.gae({ rewards: [0, 2], values: [v, vNext], gamma, lam: 0, nextValue: 0, nextDone: 1 });
    expectPrinted(source, '$\\delta = 0 + 0.9 \\times 2 - 1.4 = 0.4$', [_, _, _, _, delta[0]]);
    expect(delta[0]).toBeCloseTo(advantages[1], 6);
  });

  it('the quiz: the advantages under the policy average to zero', () => {
    const quiz = /<Quiz id="ch01-advantage-sum"[^\n]*answer=\{(\d)\}/.exec(source)!;
    const choices = /choices=\{\[([^\]]*)\]\}/.exec(quiz[0])![1].split('", "').map((c) => Number(c.replace(/"/g, '').replace('−', '-')));
    expect(choices[Number(quiz[1])]).toBeCloseTo(-(0.25 * 0.6) / 0.75, 12);
  });
});
