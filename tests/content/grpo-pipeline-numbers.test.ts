import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { zeroMemory } from '@/lib/dist/zero';
import { findModel, paramCount } from '@/lib/dist/models';
import { MODEL_SHAPE } from '@/lib/export/versions';
import * as rl from '@/lib/rl/index';
import { tinyLMWeightShapes } from '@/lib/models/shapes';
import { grpoSchema } from '@/lib/train/grpo-config';
import { createLabTask, labModelConfig } from '@/lib/train/lab-setup';
import { expectPrinted } from './printed-numbers';

// Chapters 6 and 7 print advantages, KL estimates, loss weights, ratios and evaluation arithmetic; each is
// recomputed here, with the course's core where it has the function (lib/rl through its numeric face, lib/dist).
const grpo = fs.readFileSync('content/chapters/06-grpo.mdx', 'utf8');
const pipeline = fs.readFileSync('content/chapters/07-pipeline.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const adv = (rewards: number[], scaleRewards?: 'group' | 'batch' | 'none', numGenerations = 4) => rl.grpoAdvantages({ rewards, numGenerations, scaleRewards }).advantages;
const sampleStd = (r: number[]) => {
  const m = r.reduce((a, b) => a + b, 0) / r.length;
  return Math.sqrt(r.reduce((a, b) => a + (b - m) ** 2, 0) / (r.length - 1));
};

/** A weight as the table writes it: 1/4, 4/5. */
function fraction(x: number): string {
  for (let d = 1; d <= 64; d++) if (Math.abs(x * d - Math.round(x * d)) < 1e-5) return `${Math.round(x * d)}/${d}`;
  throw new Error(`${x} is not a simple fraction`);
}

describe('chapter 6: group-relative advantages', () => {
  it('the worked group, with TRL’s unbiased std and 1e-4', () => {
    const A = adv([1, 0, 0, 1]);
    expectPrinted(grpo, '\\mathrm{std}(r) = \\sqrt{\\frac{4 \\times 0.25}{3}} = \\sqrt{0.3333} \\approx 0.5774', [4, 0.25, 3, sampleStd([1, 0, 0, 1]) ** 2, sampleStd([1, 0, 0, 1])]);
    expectPrinted(grpo, '\\hat{A} = \\frac{\\pm 0.5}{0.5774 + 0.0001} \\approx (0.866,\\; -0.866,\\; -0.866,\\; 0.866)', [0.5, _, 1e-4, ...A]);
    expectPrinted(grpo, 'so the advantages are $(1.5, -0.5, -0.5, -0.5)$', adv([1, 0, 0, 0]));
  });

  it('the difficulty bias and the three scale_rewards settings', () => {
    expectPrinted(grpo, 'has a small standard deviation ($0.5$), so its lone failure is amplified to an advantage of $-1.5$', [sampleStd([1, 1, 1, 0]), adv([1, 1, 1, 0])[3]]);
    expectPrinted(grpo, 'has a standard deviation of $0.577$ and advantages of only $\\pm 0.87$', [sampleStd([1, 0, 1, 0]), adv([1, 0, 1, 0])[0]]);
    const batch = [1, 0, 0, 1, 1, 1, 1, 1];
    expectPrinted(grpo, "The batch's eight rewards have mean $0.75$ and unbiased standard deviation $0.463$", [0.75, sampleStd(batch)]);
    for (const [scale, printed] of [['group', '±0.866'], ['batch', '±1.080'], ['none', '±0.5']] as const) {
      const A = adv(batch, scale);
      expectPrinted(grpo, `| \`'${scale}'\` | ${printed} | 0, 0, 0, 0 |`, [A[0], ...A.slice(4)]);
      expect(A[1]).toBeCloseTo(-A[0], 6);
    }
  });

  it('two reward functions, summed before standardising', () => {
    const A = rl.grpoAdvantages({ rewardsPerFunc: [[1, 1], [0, 1], [0, 1], [0, 0]], rewardWeights: [1, 0.2], numGenerations: 4 }).advantages;
    const r = [1.2, 0.2, 0.2, 0];
    expectPrinted(grpo, 'scores $(1.2, 0.2, 0.2, 0)$. The mean is $0.4$, the unbiased standard deviation $0.542$, and the advantages are $(1.48, -0.37, -0.37, -0.74)$', [...r, 0.4, sampleStd(r), ...A]);
  });

  it('the quiz: one success in four', () => {
    const A = adv([0, 1, 0, 0]);
    const population = 0.75 / Math.sqrt(0.1875);
    expectPrinted(grpo, 'choices={["About 1.73", "About 1.5", "0.75", "1.0"]}', [population, A[1], adv([0, 1, 0, 0], 'none')[1], _]);
  });
});

describe('chapter 6: the k3 term, the normalisers and GSPO', () => {
  it('k3 on one token, from the loss the core adds with beta', () => {
    const k3 = rl.grpoLoss({ logps: [[Math.log(0.5)]], refLogps: [[Math.log(0.4)]], advantages: [0], mask: [[1]], beta: 1, lossType: 'dapo' }).loss;
    expectPrinted(grpo, 'Then $u = 0.8$ and the estimate is $0.8 - \\log 0.8 - 1 = 0.8 + 0.2231 - 1 = 0.0231$', [0.4 / 0.5, _, _, _, _, -Math.log(0.8), _, k3]);
    expectPrinted(grpo, 'The naive estimator $-\\log u = 0.2231$ is ten times larger', [-Math.log(0.8)]);
    expect(Math.round(-Math.log(0.8) / k3)).toBe(10);
  });

  it('the weight of each token under each loss_type, from the core’s gradients', () => {
    const T = 8;
    const mask = [Array.from({ length: T }, (_, t) => (t < 2 ? 1 : 0)), Array(T).fill(1)];
    for (const lossType of ['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const) {
      const { grad } = rl.grpoLoss({ logps: mask.map((row) => row.map(() => -1)), advantages: [-1, -1], mask, lossType, maxCompletionLength: 16 });
      const short = Math.abs(grad[0][0]);
      const long = Math.abs(grad[1][0]);
      expect(grpo).toContain(`| \`'${lossType}'\` | ${fraction(short)} | ${fraction(long)} | ${fraction(2 * short)} | ${fraction(8 * long)} |`);
    }
    expect(grpo).toContain('with `max_completion_length` $L_{\\max} = 16$');
  });

  it('a worked sequence ratio', () => {
    const logRatios = [0.1, -0.05, 0.01];
    const args = { logps: [logRatios], oldLogps: [[0, 0, 0]], advantages: [1], mask: [[1, 1, 1]], lossType: 'grpo' as const, epsilon: 10, epsilonHigh: 10 };
    const tokenRatios = rl.grpoLoss(args).grad[0].map((g) => -3 * g); // per-sequence mean of −ρ_t: ∂/∂logp_t = −ρ_t/3
    const s = -rl.grpoLoss({ ...args, importanceSamplingLevel: 'sequence' }).loss;
    expectPrinted(grpo, 'The token ratios are $(1.105, 0.951, 1.010)$', tokenRatios);
    expectPrinted(grpo, '$s = \\exp\\big((0.10 - 0.05 + 0.01)/3\\big) = \\exp(0.02) \\approx 1.020$', [...logRatios.map(Math.abs), 3, 0.02, s]);
  });

  it('the memory of a 7B critic under mixed-precision Adam', () => {
    const bytes = zeroMemory({ params: 7e9, dp: 1, stage: 0 });
    expectPrinted(grpo, '16 bytes per parameter', [bytes / 7e9]);
    expectPrinted(grpo, 'or 112 GB for a 7B-parameter critic', [bytes / 1e9, 7]);
  });
});

describe('chapter 7: the pipeline’s arithmetic', () => {
  it('zero-variance groups with G = 8', () => {
    const p0 = (p: number, G = 8) => p ** G + (1 - p) ** G;
    expectPrinted(pipeline, 'With $G = 8$ and $p = 0.01$ that is $0.92$', [8, 0.01, p0(0.01)]);
    expectPrinted(pipeline, 'With $p = 0.275$, the accuracy of this course\'s SFT checkpoint, it is $0.076$', [0.275, p0(0.275)]);
  });

  it('pass@k with the unbiased estimator', () => {
    const choose = (n: number, k: number): number => (k < 0 || k > n ? 0 : k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
    const passAtK = (n: number, c: number, k: number) => 1 - choose(n - c, k) / choose(n, k);
    expectPrinted(pipeline, 'pass@1 is $1 - 7/10 = 0.3$', [1, 1, 7, 10, passAtK(10, 3, 1)]);
    expectPrinted(pipeline, 'pass@5 is $1 - \\binom{7}{5} / \\binom{10}{5} = 1 - 21/252 \\approx 0.917$', [5, 1, 7, 5, 10, 5, 1, choose(7, 5), choose(10, 5), passAtK(10, 3, 5)]);
    expectPrinted(pipeline, 'it gives $1 - 0.7^5 \\approx 0.832$ instead of $0.917$', [1, 0.7, 5, 1 - 0.7 ** 5, passAtK(10, 3, 5)]);
    expectPrinted(pipeline, '$(1 - 5/8)(1 - 5/9)(1 - 5/10) = 0.375 \\times 0.444 \\times 0.5 \\approx 0.083$, giving $0.917$ again', [1, 5, 8, 1, 5, 9, 1, 5, 10, 1 - 5 / 8, 1 - 5 / 9, 1 - 5 / 10, choose(7, 5) / choose(10, 5), passAtK(10, 3, 5)]);
    expectPrinted(pipeline, 'choices={["0.25", "0.4375", "About 0.464", "0.5"]}', [passAtK(8, 2, 1), 1 - 0.75 ** 2, passAtK(8, 2, 2), _]);
  });

  it('the standard error of 200 held-out problems, and the batch of the TRL run', () => {
    const heldOut = grpoSchema.eval_samples.default; // the lab's held-out set
    expectPrinted(pipeline, 'about $\\sqrt{0.5 \\times 0.5 / 200} \\approx 3.5$ points', [0.5, 0.5, heldOut, 100 * Math.sqrt(0.25 / heldOut)]);
    expect(pipeline).toContain(`gradient_accumulation_steps=4,      # ${16 * 4} completions per step: ${(16 * 4) / 8} prompts x 8 generations`);
  });

  it('the lab model against Qwen3-0.6B, the export’s model, and its size wherever a chapter prints it', () => {
    const config = labModelConfig(createLabTask());
    const lab = [...tinyLMWeightShapes(config).values()].reduce((sum, shape) => sum + shape.reduce((a, b) => a * b, 1), 0);
    const qwen = paramCount(findModel(MODEL_SHAPE));
    expectPrinted(grpo, 'a 27.6k-parameter, 2-layer transformer', [lab / 1e3, config.n_layers]);
    expectPrinted(fs.readFileSync('content/chapters/05-dpo.mdx', 'utf8'), 'a 27.6k-parameter transformer', [lab / 1e3]);
    expectPrinted(fs.readFileSync('content/chapters/02-sft-lora.mdx', 'utf8'), 'the course\'s 27,606-parameter transformer', [lab]);
    expectPrinted(pipeline, 'about 22,000 times fewer parameters than Qwen3-0.6B (27.6k against 0.60 billion)', [_, _, _, lab / 1e3, qwen / 1e9]);
    expect(Math.abs(qwen / lab / 22000 - 1)).toBeLessThan(0.05);
  });
});
