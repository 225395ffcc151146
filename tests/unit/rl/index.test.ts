import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';

import * as rl from '@/lib/rl/index';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('numeric face', () => {
  it('exports exactly the documented functions', () => {
    expect(Object.keys(rl).sort()).toEqual(
      ['dpoLoss', 'gae', 'grpoAdvantages', 'grpoLoss', 'loraScaling', 'loraTrainableParams', 'ppoPolicyLoss', 'ppoValueLoss'].sort(),
    );
  });

  it('returns plain numbers and leaves no tensors behind', () => {
    const before = tf.memory().numTensors;
    const adv = rl.grpoAdvantages({ rewardsPerFunc: [[1, NaN], [0, 1], [NaN, NaN], [2, 0]], numGenerations: 2 });
    const g = rl.grpoLoss({
      logps: [[-1, -2], [-0.5, -1]], oldLogps: [[-1.1, -2], [-0.4, -1]], refLogps: [[-1, -1.5], [-0.5, -1]],
      advantages: [1, -1], mask: [[1, 1], [1, 0]], beta: 0.1, importanceSamplingLevel: 'sequence', lossType: 'grpo',
    });
    const d = rl.dpoLoss({ chosenLogps: [-3], rejectedLogps: [-4], refChosenLogps: [-3.5], refRejectedLogps: [-3.5], lossType: 'ipo', chosenLengths: [3], rejectedLengths: [4] });
    const a = rl.gae({ rewards: [1, 0, 1], values: [0, 0.5, 0], gamma: 0.99, lam: 0.95, dones: [0, 0, 1], nextValue: 1 });
    const p = rl.ppoPolicyLoss({ newLogprobs: [[-1]], oldLogprobs: [[-1.2]], advantages: [[1]], paddingMask: [[0]] });
    const v = rl.ppoValueLoss({ vpred: [[0.3]], values: [[0]], returns: [[1]], validMask: [[1]] });
    expect(tf.memory().numTensors).toBe(before);
    for (const x of [adv.advantages, g.grad.flat(), [g.loss], [d.loss, ...d.gradChosen, ...d.chosenRewards], a.advantages, a.returns, [p.pgLoss, ...p.grad.flat()], [v.vfLoss, ...v.grad.flat()]]) {
      for (const n of x) expect(typeof n).toBe('number');
    }
    expect(Array.isArray(g.grad[0])).toBe(true);
  });

  it('failed validation leaves no tensors behind either', () => {
    const before = tf.memory().numTensors;
    expect(() => rl.grpoLoss({ logps: [[-1]], advantages: [1], mask: [[1]], lossType: 'nope' as 'dapo' })).toThrow(/grpoLoss: unknown lossType/);
    expect(() => rl.dpoLoss({ chosenLogps: [-1], rejectedLogps: [-1], refChosenLogps: [-1], refRejectedLogps: [-1], beta: -1 })).toThrow(/dpoLoss: beta/);
    expect(tf.memory().numTensors).toBe(before);
  });
});
