/**
 * The token view's numbers are the loss's (issue 53): a GRPO stepper trains on a hand-made batch, and one displayed
 * row is rebuilt by hand from lib/rl's log-probs under snapshots of the policy (the one that sampled, the one the step
 * trained, the frozen reference) and chapter 6's formulas. The rows' Σ weight · ℓ is the step's logged loss.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { completionLogprobs } from '@/lib/rl/logprobs';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { resolveGrpoConfig } from '@/lib/train/grpo-trainer';
import { createGrpoStepper, type GroupBatch } from '@/lib/train/grpo-update';
import { completionBatch, completionLogits } from '@/lib/train/lm-batch';
import { updateConfigOf } from '@/lib/train/on-policy';
import { inTensorScope } from '@/lib/train/scope';
import { pickTokenRows, type StepTokenTerms } from '@/lib/train/token-terms';

const task = createArithmeticTask({ digits: 1, scratchpad: true });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Four completions of two prompts (G = 2), each group with one right and one wrong answer, and different lengths. */
function handBatch(): GroupBatch {
  const problems = task.sample('train', 2, createRng(3));
  const tok = task.tokenizer;
  const right = problems.map((p) => task.encodeCompletion(p));
  const wrong = right.map((c) => c.slice(0, Math.max(2, c.length - 3)));
  const completions = [right[0], wrong[0], wrong[1], right[1]];
  return {
    prompts: [problems[0], problems[0], problems[1], problems[1]].map((p) => task.encodePrompt(p)),
    completions,
    lossMask: completions.map((c) => c.map(() => 1)),
    rewardsPerFunc: [[1], [0], [0], [1]],
    rewardWeights: [1],
    pad: tok.pad,
  };
}

/** Per-token log-probs of the batch under `model`, as plain numbers (lib/rl/logprobs.ts on the stepper's batch layout). */
function logpsUnder(model: TinyLM, g: GroupBatch, temperature: number): number[][] {
  const batch = completionBatch(g.prompts, g.completions, g.lossMask, g.pad);
  const out = tf.tidy(() => completionLogprobs(completionLogits(model, batch, false), batch.targets, temperature).arraySync());
  batch.dispose();
  return out;
}

async function stepsWithTerms(overrides: Record<string, unknown>, steps: number) {
  const config = resolveGrpoConfig({ per_device_train_batch_size: 4, num_generations: 2, max_completion_length: 12, ...overrides });
  const model = createTinyLM(configForTask(task, { d_model: 16, n_layers: 1, n_heads: 2 }), 0);
  const batch = handBatch();
  const snapshots: TinyLM[] = [];
  const stepper = createGrpoStepper(model, updateConfigOf(config), async () => ({ batch, metrics: {}, samples: null }), createRng(1));
  const results: { terms: StepTokenTerms; loss: number; advantages: Float32Array | null }[] = [];
  let advantages: Float32Array | null = null;
  for (let s = 0; s < steps; s++) {
    snapshots.push(model.clone());
    let terms: StepTokenTerms | null = null;
    const metrics = await inTensorScope((keep) => stepper.trainStep(keep, (g) => (advantages = g.advantages), (t) => (terms = t)));
    results.push({ terms: terms!, loss: metrics.loss, advantages });
  }
  stepper.dispose();
  return { config, batch, snapshots, results, dispose: () => [model, ...snapshots].forEach((m) => m.dispose()) };
}

describe('the token view rebuilt by hand', () => {
  it('an off-policy step (num_iterations 2, β 0.04, ε_high 0.28): ratio, clip side, Â, weight, k3 and ℓ of one row', async () => {
    const run = await stepsWithTerms({ num_iterations: 2, beta: 0.04, epsilon_high: 0.28, learning_rate: 0.05, loss_type: 'dapo' }, 2);
    const { terms, loss } = run.results[1];
    const A = Array.from(run.results[0].advantages!);
    expect(terms.update).toBe(2);
    expect(terms.updates).toBe(2);
    // Old = the policy that sampled (before step 1), reference = the starting policy (the same snapshot), θ = before step 2.
    const T = run.config.temperature;
    const old = logpsUnder(run.snapshots[0], run.batch, T);
    const lp = logpsUnder(run.snapshots[1], run.batch, T);
    const ref = old;
    const maskOf = (i: number) => run.batch.lossMask[i].concat(Array(old[0].length - run.batch.lossMask[i].length).fill(0));
    const tokens = run.batch.lossMask.flat().reduce((a, b) => a + b, 0);
    // Advantages by hand: two groups of rewards (1, 0) and (0, 1): mean 0.5, std √0.5 → ±0.5 / (√0.5 + 1e-4).
    const a = 0.5 / (Math.sqrt(0.5) + 1e-4);
    expect(A[0]).toBeCloseTo(a, 5);
    expect(A[1]).toBeCloseTo(-a, 5);

    let sumWeighted = 0;
    for (const row of terms.rows) {
      const i = row.row;
      const m = maskOf(i);
      expect(row.advantage).toBeCloseTo(A[i], 6);
      expect(row.mask).toEqual(m);
      m.forEach((mt, t) => {
        if (!mt) {
          expect(row.weight[t]).toBe(0);
          expect(row.loss[t]).toBe(0);
          return;
        }
        const rho = Math.exp(lp[i][t] - old[i][t]);
        const clipped = rho < 1 - 0.2 && A[i] < 0 ? 'low' : rho > 1 + 0.28 && A[i] > 0 ? 'high' : null;
        const u = Math.exp(ref[i][t] - lp[i][t]);
        const k3 = u - Math.log(u) - 1;
        const ell = -Math.min(rho * A[i], Math.min(Math.max(rho, 0.8), 1.28) * A[i]) + 0.04 * k3;
        expect(row.ratio[t]).toBeCloseTo(rho, 4);
        expect(row.clipped[t]).toBe(clipped);
        expect(row.weight[t]).toBeCloseTo(1 / tokens, 7); // dapo: 1 / Σ|y| over the slice
        expect(row.kl![t]).toBeCloseTo(k3, 4);
        expect(row.loss[t]).toBeCloseTo(ell, 4);
        sumWeighted += row.weight[t] * row.loss[t];
      });
    }
    // All four rows are shown (the slice has four), so Σ weight · ℓ is the loss the step logged.
    expect(terms.rows.map((r) => r.row)).toEqual([0, 1, 2, 3]);
    expect(sumWeighted).toBeCloseTo(loss, 5);
    // The step moved the policy: some ratio left 1 (else this test would check nothing about the clip).
    expect(terms.rows.some((r) => r.ratio.some((v, t) => r.mask[t] && Math.abs(v - 1) > 1e-3))).toBe(true);
    run.dispose();
  });

  it('on-policy (TRL defaults): every ratio is exactly 1, nothing is clipped, no KL column', async () => {
    const run = await stepsWithTerms({}, 1);
    const { terms } = run.results[0];
    expect(terms.update).toBe(1);
    expect(terms.updates).toBe(1);
    for (const row of terms.rows) {
      row.ratio.forEach((v, t) => row.mask[t] && expect(v).toBe(1));
      expect(row.clipped.every((c) => c === null)).toBe(true);
      expect(row.kl).toBeNull();
    }
    run.dispose();
  });

  it("importance_sampling_level 'sequence': one ratio per completion, s_i = exp(mean log-ratio)", async () => {
    const run = await stepsWithTerms({ num_iterations: 2, importance_sampling_level: 'sequence', loss_type: 'grpo', learning_rate: 0.05 }, 2);
    const { terms } = run.results[1];
    const T = run.config.temperature;
    const old = logpsUnder(run.snapshots[0], run.batch, T);
    const lp = logpsUnder(run.snapshots[1], run.batch, T);
    for (const row of terms.rows) {
      const n = run.batch.lossMask[row.row].length;
      const s = Math.exp(lp[row.row].slice(0, n).reduce((acc, v, t) => acc + v - old[row.row][t], 0) / n);
      expect(row.ratio).toHaveLength(1);
      expect(row.clipped).toHaveLength(1);
      expect(row.ratio[0]).toBeCloseTo(s, 4);
      // grpo: 1 / (B · |y_i|) per token.
      row.mask.forEach((mt, t) => expect(row.weight[t]).toBeCloseTo(mt ? 1 / (4 * n) : 0, 7));
    }
    run.dispose();
  });
});

describe('pickTokenRows', () => {
  it('alternates positive and negative advantages, then zeros, in batch order', () => {
    // Positive in slice order 5, 1, 2; negative 7, 3: taken 5, 7, 1, 3 (row 2 and the zero row 0 left out).
    expect(pickTokenRows([5, 1, 2, 7, 3, 0], [0, 1, 1, -1, 0, 0.5, 0, -2])).toEqual([1, 3, 5, 7]);
    expect(pickTokenRows([0, 1, 2], [0, 0, 0])).toEqual([0, 1, 2]);
    expect(pickTokenRows([4, 6], [0, 0, 0, 0, -1, 0, -2], 4)).toEqual([4, 6]);
  });
});
