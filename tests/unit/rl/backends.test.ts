// The labs may run on wasm in the browser: the same calls must give the same numbers there as on cpu.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';

import * as rl from '@/lib/rl/index';
import { completionLogprobsAndEntropy } from '@/lib/rl/logprobs';
import { sftLoss } from '@/lib/rl/sft';

function battery(): number[] {
  const out: unknown[] = [
    rl.grpoAdvantages({ rewardsPerFunc: [[1, NaN], [0, 1], [NaN, NaN], [2, 0], [0.5, 0.5], [3, NaN]], numGenerations: 3, rewardWeights: [1, 2] }),
    rl.grpoAdvantages({ rewards: [1, 0, 0, 1, 2, 3], numGenerations: 3, scaleRewards: 'batch' }),
    rl.grpoLoss({
      logps: [[-1, -2], [-0.5, -1]], oldLogps: [[-1.3, -2.1], [-0.2, -1]], refLogps: [[-1, -1.5], [-0.5, -1]],
      advantages: [1, -1], mask: [[1, 1], [1, 0]], beta: 0.1, lossType: 'grpo',
    }),
    rl.grpoLoss({ logps: [[-1, -2], [-0.5, -1]], advantages: [0.5, -1], mask: [[1, 1], [1, 0]], importanceSamplingLevel: 'sequence' }),
    rl.dpoLoss({ chosenLogps: [-3, -5], rejectedLogps: [-4, -4], refChosenLogps: [-3.5, -5], refRejectedLogps: [-3.5, -4.5], labelSmoothing: 0.1 }),
    rl.dpoLoss({ chosenLogps: [-3], rejectedLogps: [-4], refChosenLogps: [-3.5], refRejectedLogps: [-3.5], lossType: 'ipo', chosenLengths: [3], rejectedLengths: [2] }),
    rl.gae({ rewards: [1, 0, 1, 0.5], values: [0, 0.5, 0, 0.2], gamma: 0.99, lam: 0.95, dones: [0, 1, 0, 0], nextValue: 1 }),
    rl.ppoPolicyLoss({ newLogprobs: [[-1, -2, -1]], oldLogprobs: [[-1.5, -2, -0.9]], advantages: [[1, 1, -1]], paddingMask: [[0, 0, 1]] }),
    rl.ppoValueLoss({ vpred: [[0.3, 2, 0.05]], values: [[0, 0, 0]], returns: [[1, 1, -1]], validMask: [[1, 1, 1]] }),
    tf.tidy(() => {
      const L = tf.tensor3d([[[1, 2, 3], [0, -1, 2]], [[0.5, 0.5, -2], [1, 1, 1]]]);
      const ids = tf.tensor2d([[2, 0], [1, 2]], undefined, 'int32');
      const mask = tf.tensor2d([[1, 1], [0, 1]]);
      const g = tf.grad((x: tf.Tensor) => sftLoss(x as tf.Tensor3D, ids, mask).loss)(L);
      const r = completionLogprobsAndEntropy(L, ids, 0.7);
      return [g.arraySync(), r.logps.arraySync(), r.entropy.arraySync()];
    }),
  ];
  return JSON.stringify(out).match(/-?\d+(\.\d+)?(e[-+]?\d+)?/g)!.map(Number);
}

describe('backends', () => {
  it('wasm gives the cpu numbers (one-hot pick, NaN handling, custom gradients)', async () => {
    await tf.setBackend('cpu');
    const cpu = battery();
    expect(await tf.setBackend('wasm')).toBe(true);
    const wasm = battery();
    expect(wasm.length).toBe(cpu.length);
    cpu.forEach((c, i) => expect(Math.abs(wasm[i] - c), `value ${i}`).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(c))));
    expect(cpu.some((c) => Math.abs(c) > 0.01)).toBe(true);
    await tf.setBackend('cpu');
  });
});
